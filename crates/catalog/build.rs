// The bundled catalog is compiled in with include_dir; rebuild when a spec file is added,
// removed or changed (a directory path makes cargo scan the whole tree).
fn main() {
    println!("cargo:rerun-if-changed=../../block_specs");
}
