//! The API over real HTTP: each module drives a server on a loopback port (`common`) through
//! one part of the API. They are one test binary so the workspace links the server and its
//! clients once rather than once for each part. The modules run side by side in one process,
//! so none may change it: a test that sets environment variables, resource limits, signal
//! handlers or a global subscriber goes in a file of its own beside this folder, as the
//! tests of panics (`panics.rs`), of a store that cannot be written (`unwritable.rs`) and of
//! the Lambda runtime (`lambda.rs`) do.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod archives;
mod browser;
mod browser_mailbox;
mod browser_tap;
mod cancelled_games;
mod challenge_cap;
mod challenge_ratings;
mod errors;
mod events;
mod game_record;
mod games;
mod generated_client;
mod hooks;
mod import_limits;
mod key_rotation;
mod limits;
mod lobby;
mod mail_limits;
mod mail_links;
mod mail_threads;
mod openapi;
mod organiser_acts;
mod outsiders;
mod page;
mod pages_mailbox;
mod push;
mod replies;
mod server;
mod sign_in;
mod sign_up;
mod sockets;
mod start_mails;
mod tournament_formats;
mod tournament_mails;
mod tournament_organiser;
mod tournament_starts;
mod tournaments;
mod unsubscribe;
mod vacation;
mod xfcc;
