// book: docs/src/moving-tensors/sequencer.md (Configurations › Splitting Axes) — A and B split into tiles, C # 32 over-reading the buffer's end
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
use furiosa_opt_std::pseudo::{MemTensor, StreamTensor};
axes![A = 8, B = 8, C = 4];

// The book's configuration [2:64, 4:8, 4:128, 2:32, 32:1] : 32; the last packet reads 24
// elements past the 512-element buffer, all of them C's top padding.
fn read_splitting<'l>(
    buf: &'l MemTensor<i8, m![A, B, C # 8]>,  // Buf
) -> StreamTensor<'l, i8, m![A % 2, B % 4, A / 2, B / 4], m![C # 32]> {  // Time, Packet
    buf.read()
}

// Driver code of the snippet (not part of the kernel).
let buf_read = MemTensor::<i8, m![A, B, C # 8]>::from_vec(vec![1i8; 8 * 8 * 8]);
let _stream = read_splitting(&buf_read);
