// expect: E-PARSE-206 1:1   (no kernel at all)
axes![A = 8];
type X = m![A];
fn main() {}
