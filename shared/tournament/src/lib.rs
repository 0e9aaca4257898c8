//! Missive's tournaments as pure values: who plays whom, what a result is worth, the
//! crosstable with its tiebreaks, and the Glicko-2 ratings games move.
//!
//! No I/O, no clock, no randomness: values in, values out. A player is an index into the
//! tournament's player list, counted from 0; the caller keeps the names and handles.
//!
//! - [`pairing`]: round robins of two-seat games (Berger tables) and three-seat tables.
//! - [`score`]: points in exact sixths of a point.
//! - [`standings`]: the crosstable, withdrawals, Sonneborn-Berger and the ranking.
//! - [`rating`]: Glicko-2 ratings: weekly rating periods, idle deviations widened.

pub mod pairing;
pub mod rating;
pub mod score;
pub mod standings;
