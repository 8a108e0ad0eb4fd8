// The crate root of tests/data/reference/src/ (furiosa-opt-examples/src/lib.rs in the reference):
// its presence makes this directory the crate's source directory, where `use crate::…` finds the
// modules' files (docs/kernel-language.md §1.2). It declares the modules copied beside it; the
// reference's other modules are not copied.
pub mod negative;
pub mod switch_assertions;
