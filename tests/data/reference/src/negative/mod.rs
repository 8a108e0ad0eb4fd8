// furiosa-opt-examples/src/negative/mod.rs in the reference: the module of the rejection fixtures
// (each kernel in it must be refused). Only the module copied beside it is declared.
pub mod switch_assertions;
