//! The bounds an envelope is read within, checked by one iterative pass before any tree is
//! built: the tree builder recurses once per open element, so an unchecked document nested
//! deeply enough would overflow the stack and abort the process.

use xmlparser::{ElementEnd, Token, Tokenizer};

/// How large, deep and wide a document may be. A real Xfcc envelope is under 10 elements
/// deep, holds a few dozen nodes and declares a handful of namespaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnvelopeLimits {
    /// The most bytes a document may have.
    pub bytes: usize,
    /// The deepest an element may be nested (the root element is at depth 1).
    pub depth: usize,
    /// The most nodes (elements, text, comments, processing instructions) a document may
    /// hold; elements alone are counted before the tree is built.
    pub nodes: usize,
    /// The most namespace declarations (`xmlns`, `xmlns:p` attributes) a document may make:
    /// the tree builder copies the declarations in scope into each element that declares
    /// one, and checks each copy against the others.
    pub namespaces: usize,
}

impl EnvelopeLimits {
    /// The limits Xfcc requests are read within: 64 KiB (the API's body limit), 32 deep,
    /// 2,000 nodes, 64 namespace declarations.
    pub const XFCC: EnvelopeLimits = EnvelopeLimits {
        bytes: 64 * 1024,
        depth: 32,
        nodes: 2_000,
        namespaces: 64,
    };

    /// Checks `text` in one pass, without recursion: `Err` says which limit it is beyond,
    /// or where it stops being XML. A document that passes is within the size, depth and
    /// namespace limits and has no more elements than nodes allowed.
    pub(crate) fn check(&self, text: &str) -> Result<(), String> {
        if text.len() > self.bytes {
            return Err(format!(
                "the request is larger than {} bytes ({})",
                self.bytes,
                text.len()
            ));
        }
        let (mut depth, mut elements, mut namespaces) = (0usize, 0usize, 0usize);
        for token in Tokenizer::from(text) {
            let token =
                token.map_err(|error| format!("the request is not well-formed XML: {error}"))?;
            match token {
                Token::ElementStart { .. } => {
                    depth += 1;
                    elements += 1;
                    if depth > self.depth {
                        return Err(format!(
                            "the document nests elements deeper than {}",
                            self.depth
                        ));
                    }
                    if elements > self.nodes {
                        return Err(format!(
                            "the document has more than {} elements",
                            self.nodes
                        ));
                    }
                }
                Token::ElementEnd {
                    end: ElementEnd::Empty | ElementEnd::Close(..),
                    ..
                } => depth = depth.saturating_sub(1),
                Token::Attribute { prefix, local, .. }
                    if prefix.as_str() == "xmlns"
                        || (prefix.is_empty() && local.as_str() == "xmlns") =>
                {
                    namespaces += 1;
                    if namespaces > self.namespaces {
                        return Err(format!(
                            "the document declares more than {} namespaces",
                            self.namespaces
                        ));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl Default for EnvelopeLimits {
    /// [`EnvelopeLimits::XFCC`].
    fn default() -> EnvelopeLimits {
        EnvelopeLimits::XFCC
    }
}
