//! A page's text fields as its markup has them — tag, type, `name`, `id`, placeholder — matched
//! to the snapshot's text boxes, for what the accessibility tree does not say: which box is a
//! text area or a date, and which unlabelled box a step's word ("the username", "the password")
//! names.

use planwright_browser::BrowserError;

use crate::driver::PageDriver;
use crate::page::Page;
use crate::text::fold;

/// One text field of the page's markup.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct FieldMarkup {
    pub tag: String,
    pub r#type: String,
    pub name: String,
    pub id: String,
    pub placeholder: String,
}

impl FieldMarkup {
    /// Whether the field's markup names `word`: its `name`, `id`, placeholder or type holds it,
    /// or it holds the `name` or `id` ("user" for "username").
    pub fn says(&self, word: &str) -> bool {
        let word = fold(word);
        let attribute = |a: &str| fold(a).replace(['_', '-'], " ");
        !word.is_empty()
            && ([&self.name, &self.id, &self.placeholder, &self.r#type].iter().any(|a| attribute(a).contains(&word))
                || [&self.name, &self.id].iter().any(|a| a.chars().count() >= 3 && word.contains(&attribute(a))))
    }
}

/// The snapshot's text boxes of the top document (indexes into `page.nodes`), each with its
/// markup — or nothing when the two do not pair up one to one (fields in frames or shadow
/// roots, editable regions), since then which is which cannot be told.
pub async fn text_fields(session: &dyn PageDriver, page: &Page) -> Result<Vec<(usize, FieldMarkup)>, BrowserError> {
    let boxes: Vec<usize> = page
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| {
            matches!(n.role.as_str(), "textbox" | "searchbox" | "spinbutton")
                && !page.ancestors(*i).any(|(_, a)| a.role == "iframe")
        })
        .map(|(i, _)| i)
        .collect();
    let markup = session.text_fields().await?;
    if markup.len() != boxes.len() {
        return Ok(Vec::new());
    }
    Ok(boxes.into_iter().zip(markup).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fields_markup_names_the_words_of_its_attributes() {
        let field = FieldMarkup {
            tag: "input".into(),
            r#type: "password".into(),
            name: "user_pass".into(),
            id: "pw".into(),
            placeholder: String::new(),
        };
        assert!(field.says("password") && field.says("pass") && field.says("PW"));
        assert!(!field.says("username") && !field.says(""));
        let user = FieldMarkup { name: "user".into(), r#type: "text".into(), ..field };
        assert!(user.says("username"));
    }
}
