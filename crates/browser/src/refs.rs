//! Element refs (`e12`) that stay the same across snapshots while an element's role and name
//! do, so a model can name an element it saw in an earlier snapshot.

use std::collections::{HashMap, HashSet, VecDeque};

/// An element of the page: its frame and its DevTools backend node id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct NodeKey {
    pub(crate) frame_id: String,
    pub(crate) backend_id: i64,
}

#[derive(Debug, Clone)]
struct Entry {
    number: u64,
    role: String,
    name: String,
}

/// How many refs of elements that went away are remembered for elements that come back.
const RETIRED_LIMIT: usize = 4096;

/// The refs given so far in a session.
#[derive(Debug, Default)]
pub(crate) struct RefTable {
    next: u64,
    by_node: HashMap<NodeKey, Entry>,
    by_number: HashMap<u64, NodeKey>,
    /// Refs of elements that went away, by role and name, oldest first: an element that comes
    /// back (a re-rendered button, the same page visited again) takes its old ref.
    retired: HashMap<(String, String), VecDeque<u64>>,
    retired_count: usize,
}

impl RefTable {
    /// Gives each element (in snapshot order) its ref. An element keeps the ref it had while
    /// its role and name stay; an element that replaced one that went away (a re-rendered
    /// button, the same page opened again) takes over that one's ref when role and name agree.
    /// `complete` says the list is the whole page, so elements missing from it are gone.
    pub(crate) fn assign(&mut self, elements: &[(NodeKey, &str, &str)], complete: bool) -> Vec<String> {
        if complete {
            let present: HashSet<&NodeKey> = elements.iter().map(|(key, _, _)| key).collect();
            let mut gone: Vec<(NodeKey, Entry)> = self
                .by_node
                .iter()
                .filter(|(key, _)| !present.contains(key))
                .map(|(k, e)| (k.clone(), e.clone()))
                .collect();
            gone.sort_by_key(|(_, entry)| entry.number);
            for (key, entry) in gone {
                self.by_node.remove(&key);
                self.by_number.remove(&entry.number);
                self.retire(entry);
            }
        }
        let mut refs = Vec::with_capacity(elements.len());
        for (key, role, name) in elements {
            let kept = self.by_node.get(key).filter(|e| e.role == *role && e.name == *name).map(|e| e.number);
            let number = match kept {
                Some(number) => number,
                None => {
                    if let Some(old) = self.by_node.remove(key) {
                        self.by_number.remove(&old.number);
                        self.retire(old);
                    }
                    let number = self.reuse(role, name).unwrap_or_else(|| {
                        self.next += 1;
                        self.next
                    });
                    self.by_node
                        .insert(key.clone(), Entry { number, role: (*role).to_owned(), name: (*name).to_owned() });
                    self.by_number.insert(number, key.clone());
                    number
                }
            };
            refs.push(format!("e{number}"));
        }
        refs
    }

    fn retire(&mut self, entry: Entry) {
        if self.retired_count >= RETIRED_LIMIT {
            self.retired.clear();
            self.retired_count = 0;
        }
        self.retired.entry((entry.role, entry.name)).or_default().push_back(entry.number);
        self.retired_count += 1;
    }

    fn reuse(&mut self, role: &str, name: &str) -> Option<u64> {
        let key = (role.to_owned(), name.to_owned());
        let queue = self.retired.get_mut(&key)?;
        let number = queue.pop_front()?;
        if queue.is_empty() {
            self.retired.remove(&key);
        }
        self.retired_count -= 1;
        Some(number)
    }

    /// The element a ref names, if it was given in this session and not taken back.
    pub(crate) fn lookup(&self, reference: &str) -> Option<&NodeKey> {
        let number = reference.strip_prefix('e')?.parse::<u64>().ok()?;
        self.by_number.get(&number)
    }

    /// Forgets every ref (the driven page changed to another tab).
    pub(crate) fn clear(&mut self) {
        self.by_node.clear();
        self.by_number.clear();
        self.retired.clear();
        self.retired_count = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: i64) -> NodeKey {
        NodeKey { frame_id: "main".into(), backend_id: id }
    }

    #[test]
    fn refs_stay_while_role_and_name_do() {
        let mut table = RefTable::default();
        let first = table.assign(&[(key(1), "button", "Send"), (key(2), "textbox", "To")], true);
        assert_eq!(first, ["e1", "e2"]);
        // Same nodes, another order, a new element: the old refs stay.
        let second =
            table.assign(&[(key(3), "link", "Help"), (key(2), "textbox", "To"), (key(1), "button", "Send")], true);
        assert_eq!(second, ["e3", "e2", "e1"]);
        // The button's name changed: it is another element to a reader.
        let third = table.assign(&[(key(1), "button", "Sending…"), (key(2), "textbox", "To")], true);
        assert_eq!(third, ["e4", "e2"]);
        assert_eq!(table.lookup("e4"), Some(&key(1)));
        assert_eq!(table.lookup("e1"), None);
        assert_eq!(table.lookup("x1"), None);
    }

    #[test]
    fn a_re_rendered_element_takes_over_the_ref() {
        let mut table = RefTable::default();
        table.assign(&[(key(1), "button", "Next"), (key(2), "button", "Next")], true);
        // Both buttons were rendered again as new DOM nodes.
        let again = table.assign(&[(key(7), "button", "Next"), (key(8), "button", "Next")], true);
        assert_eq!(again, ["e1", "e2"]);
        assert_eq!(table.lookup("e1"), Some(&key(7)));
    }

    #[test]
    fn refs_come_back_with_their_elements_after_another_page() {
        let mut table = RefTable::default();
        table.assign(&[(key(1), "button", "Log in"), (key(2), "textbox", "User")], true);
        table.assign(&[(key(10), "link", "Home")], true);
        assert_eq!(table.lookup("e1"), None, "a ref of an element that went away names nothing");
        let back = table.assign(&[(key(20), "textbox", "User"), (key(21), "button", "Log in")], true);
        assert_eq!(back, ["e2", "e1"]);
    }

    #[test]
    fn a_partial_snapshot_keeps_the_refs_it_did_not_see() {
        let mut table = RefTable::default();
        table.assign(&[(key(1), "button", "A"), (key(2), "button", "B")], true);
        assert_eq!(table.assign(&[(key(2), "button", "B")], false), ["e2"]);
        assert_eq!(table.lookup("e1"), Some(&key(1)));
    }
}
