// furiosa-opt-examples/src/negative/mod.rs in the reference: the module of the rejection fixtures
// (each kernel in it must be refused). Only the modules copied beside it are declared.
pub mod switch_assertions;
pub mod vector_engine;
