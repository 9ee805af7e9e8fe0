//! Rebuilds the crate when the embedded web client (web/) changes, files added included.

fn main() {
    println!("cargo:rerun-if-changed=../../web");
    println!("cargo:rerun-if-changed=migrations");
}
