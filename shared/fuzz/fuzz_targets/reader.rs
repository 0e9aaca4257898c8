//! The reader on arbitrary bytes: it never panics, keeps memory bounded, and every game it
//! accepts exports to text that reads back and exports again to the same bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use missive_archive::{ExportOptions, Registry, export, read};

fuzz_target!(|data: &[u8]| {
    for game in read(data).flatten() {
        let text = export(&game.record, ExportOptions::default(), &Registry)
            .expect("an imported game exports");
        let mut again = read(text.as_bytes());
        let back = again
            .next()
            .expect("one game")
            .expect("an exported game imports");
        assert!(again.next().is_none());
        let text_again = export(&back.record, ExportOptions::default(), &Registry)
            .expect("exports again");
        assert_eq!(text, text_again);
    }
});
