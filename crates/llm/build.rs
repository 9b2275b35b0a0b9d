// The prompts are compiled in with include_dir; rebuild when a prompt file is added, removed or
// changed (a directory path makes cargo scan the whole tree).
fn main() {
    println!("cargo:rerun-if-changed=../../prompts");
}
