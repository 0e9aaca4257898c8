//! The envelope reader on arbitrary bytes: it never panics (a stack overflow aborts, which
//! libFuzzer reports as a crash too), every input over a limit is a fault of the sender's,
//! and every fault is written as XML.

#![no_main]

use libfuzzer_sys::fuzz_target;
use missive_xfcc::{Blame, Call, EnvelopeLimits, fault_envelope};

fuzz_target!(|data: &[u8]| {
    let limits = EnvelopeLimits::XFCC;
    match Call::parse(data, &limits) {
        Ok(call) => {
            assert!(data.len() <= limits.bytes);
            assert!(!call.operation.is_empty());
        }
        Err((version, fault)) => {
            assert_eq!(fault.blame, Blame::Sender);
            assert!(!fault_envelope(version, &fault).is_empty());
        }
    }
    if data.len() > limits.bytes {
        assert!(Call::parse(data, &limits).is_err());
    }
    let deeper = [b"<a>".repeat(limits.depth + 1).as_slice(), data].concat();
    let (_, fault) = Call::parse(
        &deeper,
        &EnvelopeLimits {
            bytes: usize::MAX,
            ..limits
        },
    )
    .expect_err("nested beyond the depth limit");
    assert!(
        fault.reason.contains("deeper than") || fault.reason.contains("not UTF-8"),
        "{}",
        fault.reason
    );
});
