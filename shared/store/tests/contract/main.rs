//! The store contract: what every adapter must do, port by port, run against SQLite and
//! DynamoDB Local alike. Each module checks one port; each check takes the store under
//! test, bounded by the ports it uses, so a new adapter passes the contract port by port.

mod challenges;
mod counters;
mod credentials;
mod feed;
mod fixtures;
mod game_lists;
mod games;
mod hooks;
mod imports;
mod mail;
mod operator;
mod players;
mod ratings;
mod sockets;
mod sqlite;
mod tournaments;
mod wakes;
