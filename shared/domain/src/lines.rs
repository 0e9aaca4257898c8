//! SHA-256 of a few lines of text, as a log's hash chain hashes each entry: the lines joined
//! by `\n`. An entry's text is gathered on the stack and, when it fits in a few blocks (every
//! entry but an event with a long text), padded there and given to SHA-256's compression
//! function at once, without the streaming hasher's buffering of each line.

use sha2::digest::generic_array::GenericArray;
use sha2::{Digest, Sha256, compress256};

use crate::log::hex;

/// SHA-256's block, in bytes.
const BLOCK: usize = 64;
/// The blocks a text is gathered in.
const GATHERED: usize = 4 * BLOCK;
/// The padding a text needs at least: the `0x80` byte and the length in bits.
const PADDING: usize = 1 + 8;
/// SHA-256's initial hash value (FIPS 180-4, section 5.3.3).
const INITIAL: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// Text lines whose SHA-256 is wanted: the hash of the lines joined by `\n`.
pub(crate) struct Lines {
    gathered: [u8; GATHERED],
    length: usize,
    /// The whole text, once it outgrew `gathered`.
    spilled: Vec<u8>,
    started: bool,
}

impl Lines {
    /// No line yet.
    pub(crate) fn new() -> Lines {
        Lines {
            gathered: [0; GATHERED],
            length: 0,
            spilled: Vec::new(),
            started: false,
        }
    }

    /// Adds the next line.
    #[inline(always)]
    pub(crate) fn text(&mut self, line: &str) -> &mut Lines {
        if self.started {
            self.gather(b"\n");
        }
        self.started = true;
        self.gather(line.as_bytes());
        self
    }

    /// Adds the next line: a number in decimal.
    #[inline]
    pub(crate) fn number(&mut self, number: impl itoa::Integer) -> &mut Lines {
        self.text(itoa::Buffer::new().format(number))
    }

    /// The hash of the lines so far, in lower-case hex.
    pub(crate) fn hex(&mut self) -> String {
        if !self.spilled.is_empty() {
            return hex(&Sha256::digest(&self.spilled));
        }
        let length = self.length;
        let padded = (length + PADDING).div_ceil(BLOCK) * BLOCK;
        self.gathered[length] = 0x80;
        self.gathered[length + 1..padded - 8].fill(0);
        self.gathered[padded - 8..padded].copy_from_slice(&(length as u64 * 8).to_be_bytes());
        let mut state = INITIAL;
        for block in self.gathered[..padded].chunks_exact(BLOCK) {
            compress256(
                &mut state,
                std::slice::from_ref(GenericArray::from_slice(block)),
            );
        }
        let mut digest = [0; 32];
        for (bytes, word) in digest.chunks_exact_mut(4).zip(state) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
        hex(&digest)
    }

    /// Appends `bytes` to the text, spilling it to the heap when it no longer fits in the
    /// gathered blocks with its padding.
    #[inline(always)]
    fn gather(&mut self, bytes: &[u8]) {
        let end = self.length + bytes.len();
        if !self.spilled.is_empty() || end > GATHERED - PADDING {
            if self.spilled.is_empty() {
                self.spilled
                    .extend_from_slice(&self.gathered[..self.length]);
            }
            self.spilled.extend_from_slice(bytes);
            return;
        }
        self.gathered[self.length..end].copy_from_slice(bytes);
        self.length = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex_sha256;

    /// The lines hash as their joined text does, whatever their lengths beside a block's and
    /// the gathered blocks' (padding that spills into a further block, a text that outgrows
    /// the blocks, empty lines).
    #[test]
    fn lines_hash_as_their_joined_text() {
        let mut lengths: Vec<Vec<usize>> = (0..=GATHERED + 2).map(|n| vec![n]).collect();
        lengths.extend([
            vec![0, 0],
            vec![3, 0, 5],
            vec![GATHERED - PADDING - 1, 0],
            vec![GATHERED - PADDING - 2, 1],
            vec![GATHERED - PADDING, 1, 2],
            vec![10, GATHERED * 3, 7],
            vec![30; 12],
        ]);
        for lengths in lengths {
            let lines: Vec<String> = lengths
                .iter()
                .enumerate()
                .map(|(index, length)| char::from(b'a' + index as u8).to_string().repeat(*length))
                .collect();
            let mut hashed = Lines::new();
            for line in &lines {
                hashed.text(line);
            }
            assert_eq!(hashed.hex(), hex_sha256(&lines.join("\n")), "{lengths:?}");
        }
    }
}
