//! The reader on arbitrary bytes: it never panics, keeps memory bounded, and every game it
//! accepts exports and reads back to the same record.

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
        assert_eq!(back.record, game.record, "{text}");
        assert!(again.next().is_none());
    }
});
