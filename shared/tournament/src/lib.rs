//! Missive's tournaments as pure values.
//!
//! No I/O, no clock, no randomness: values in, values out. A player is an index into the
//! tournament's player list, counted from 0; the caller keeps the names and handles.
//!
//! - [`pairing`]: round robins of two-seat games (Berger tables) and three-seat tables.
//! - [`score`]: points in exact sixths of a point.
//! - [`standings`]: the crosstable, withdrawals, Sonneborn-Berger and the ranking.

pub mod pairing;
pub mod score;
pub mod standings;
