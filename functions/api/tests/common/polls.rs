//! Floods of event feed polls that each ask to wait the longest allowed.

use std::future::Future;
use std::time::{Duration, Instant};

use super::{Player, Server};

/// How one poll of a flood was answered.
#[derive(Debug)]
pub struct PollAnswer {
    /// The status, or `None` if the connection failed or was closed.
    pub status: Option<u16>,
    /// Whether the answer carried an `Event-Cursor`.
    pub cursor: bool,
    /// From the flood's start to the whole answer.
    pub latency: Duration,
}

/// Sends `count` `GET /v1/events?wait=25` polls at once, taking turns among `players`,
/// each on its own connection from 127.0.0.1; what they answered, once all have.
pub fn flood(
    server: &Server,
    players: &[&Player<'_>],
    count: usize,
) -> impl Future<Output = Vec<PollAnswer>> + use<> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    let url = format!("{}/v1/events?wait=25", server.base);
    let tokens: Vec<String> = players.iter().map(|p| p.token.clone()).collect();
    let started = Instant::now();
    let polls: Vec<_> = (0..count)
        .map(|index| {
            let request = http.get(&url).bearer_auth(&tokens[index % tokens.len()]);
            tokio::spawn(async move {
                let (status, cursor) = match request.send().await {
                    Ok(answer) => {
                        let status = answer.status().as_u16();
                        let cursor = answer.headers().contains_key("event-cursor");
                        match answer.bytes().await {
                            Ok(_) => (Some(status), cursor),
                            Err(_) => (None, false),
                        }
                    }
                    Err(_) => (None, false),
                };
                PollAnswer {
                    status,
                    cursor,
                    latency: started.elapsed(),
                }
            })
        })
        .collect();
    async move {
        let mut answers = Vec::with_capacity(polls.len());
        for poll in polls {
            answers.push(poll.await.unwrap());
        }
        answers
    }
}
