//! Xfcc's SOAP envelopes, apart from the service that answers them: [`Call::parse`] reads
//! one call of the XfccBasic web service from the untrusted bytes of a request, within
//! [`EnvelopeLimits`] on its size, depth and number of nodes; [`envelope`] and [`fault_envelope`]
//! write the answer in the request's [`SoapVersion`].
//!
//! Reading never panics and never recurses deeper than [`EnvelopeLimits::depth`]: the document is
//! first walked by an iterative tokenizer that counts, and only a document within the limits
//! is handed to the tree builder (whose own node limit holds as well). Anything else is a
//! [`Fault`] of the sender's that names the limit.

mod envelope;
mod limits;

pub use envelope::{
    Blame, Call, Fault, SOAP11_NS, SOAP12_NS, SoapVersion, XFCC_NS, envelope, fault_envelope,
};
pub use limits::EnvelopeLimits;
