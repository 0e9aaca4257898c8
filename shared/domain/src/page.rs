//! Lists read a page at a time: the items and, while more may follow, where to go on.

use serde::{Deserialize, Serialize};

/// Where a list goes on: an opaque text the store that made it reads back. Clients pass it
/// as they got it; it means nothing to anyone else.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cursor(pub String);

/// A page of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page<T> {
    /// The items, in the list's order.
    pub items: Vec<T>,
    /// Where the next page starts; `None` when the list is exhausted. A page may be shorter
    /// than asked for and still have a next one.
    pub next: Option<Cursor>,
}

impl<T> Page<T> {
    /// An empty last page.
    pub fn empty() -> Page<T> {
        Page {
            items: Vec::new(),
            next: None,
        }
    }

    /// The same page with each item mapped.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            next: self.next,
        }
    }
}
