// book: docs/src/moving-tensors/sequencer.md (Examples) — tiling read of an i8 buffer whose C # 32 packet over-reads the buffer's end
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
use furiosa_opt_std::pseudo::{MemTensor, StreamTensor};
axes![A = 8, B = 512, N = 4, C = 3, H = 8, W = 8, T = 4, P = 4];

// Sequencer [2:4096, 4:8, 4:8192, 128:32, 32:1] : 32 over a 32768-element buffer: the last
// packet's C # 32 runs 24 elements past the end, all of them C's top padding (poison, never data).
fn tiling_read<'l>(
    buf: &'l MemTensor<i8, m![A, B, C # 8]>,
) -> StreamTensor<'l, i8, m![A % 2, B % 4, A / 2, B / 4], m![C # 32]> {
    buf.read()
}

// Driver code of the snippet (not part of the kernel).
let buf_read = MemTensor::<i8, m![A, B, C # 8]>::from_vec(vec![1i8; 8 * 512 * 8]);
let mut buf_write = MemTensor::<i8, m![A, B, C # 8]>::from_vec(vec![0i8; 8 * 512 * 8]);

let stream = tiling_read(&buf_read);
tiling_write(&mut buf_write, stream);
