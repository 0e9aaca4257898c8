//! Moves: submitting one (idempotent, against the ply the client saw) and conditional lines
//! the service plays on a player's behalf.

use missive_domain::{ConditionalLine, Game, GameEvent, GameId, MoveRecord, Seat};
use serde::{Deserialize, Serialize};

use crate::Catalog;
use crate::ending::expire;
use crate::rules::rules_game;
use crate::service::{Access, Needs};
use crate::{GameService, ServiceError};

/// A move as a client submits it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRequest {
    /// The player moving.
    pub player: String,
    /// The ply the client saw: the move is refused as stale unless the game is still there.
    pub expected_ply: u32,
    /// The client's key for this request: a retry with the same key gets the same answer.
    pub key: String,
    /// The move in short or long notation.
    pub text: String,
    /// Whether a draw is offered with the move.
    pub offer_draw: bool,
    /// A message to the other players that goes with the move: written in the same change,
    /// right after it, under the rules of [`GameService::post_message`] (normalised, 1 to
    /// [`crate::MAX_MESSAGE`] characters, the same daily allowance).
    pub message: Option<String>,
}

/// An accepted move, and the conditional replies the service played right after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveAccepted {
    /// The move as stored.
    pub record: MoveRecord,
    /// Moves played at once from other players' conditional lines.
    pub replies: Vec<MoveRecord>,
}

enum Submitted {
    Accepted(MoveAccepted),
    TooLate(missive_domain::Ending),
}

impl GameService {
    /// Submits a move. Refused as [`ServiceError::Conflict`] unless the game is still at
    /// `expected_ply`; a request whose key was already accepted returns that first answer
    /// and plays nothing, and a different request with a key used before is refused
    /// ([`ServiceError::KeyReused`]). The move must be legal and the mover's time not run
    /// out (if it has, the game ends on time instead). Standing draw offers of other seats
    /// lapse; matching conditional lines answer at once.
    ///
    /// A move at the ply the game is at reads the head alone; only a request whose ply has
    /// passed (a retry, or stale) reads the log, where its key's first use would be. A
    /// message with the move is checked (text and allowance) before anything is written and
    /// recorded with the move, so a retry of the move does not write it twice.
    pub async fn submit_move(
        &self,
        game: &GameId,
        request: &MoveRequest,
    ) -> Result<MoveAccepted, ServiceError> {
        let catalog = self.catalog;
        let message = self.message_with_move(game, request).await?;
        let needs = |head: &missive_domain::Head| Needs {
            log: head.ply != request.expected_ply,
        };
        let submitted = self
            .transact_as(game, Access::Player(&request.player), needs, |draft| {
                let seat = draft.seat_of(&request.player)?;
                if let Some(answer) = earlier_answer(draft, seat, &request.key) {
                    if !is_same_request(catalog, draft, &answer.record, request) {
                        return Err(ServiceError::KeyReused);
                    }
                    return Ok(Submitted::Accepted(answer));
                }
                if draft.head().ply != request.expected_ply {
                    return Err(ServiceError::Conflict {
                        current_ply: draft.head().ply,
                    });
                }
                let seat = draft.mover(&request.player)?;
                if let Some(ending) = expire(draft) {
                    return Ok(Submitted::TooLate(ending));
                }
                let record = draft.play(
                    seat,
                    &request.text,
                    Some(request.key.clone()),
                    request.offer_draw,
                )?;
                if let Some(text) = &message {
                    draft.record(GameEvent::Message { text: text.clone() }, Some(seat));
                }
                let replies = follow_conditional_lines(draft)?;
                Ok(Submitted::Accepted(MoveAccepted { record, replies }))
            })
            .await?;
        match submitted {
            Submitted::Accepted(answer) => Ok(answer),
            Submitted::TooLate(ending) => Err(ServiceError::TimeExpired(ending)),
        }
    }

    /// Replaces `player`'s conditional lines in `game`. Each line lists moves in turn order
    /// from the current ply, starting with another seat's move and containing at least one
    /// of the player's; every move must be legal in turn, and two lines may not answer the
    /// same moves differently. Returns the lines as stored (long notation).
    pub async fn set_conditional_lines(
        &self,
        game: &GameId,
        player: &str,
        lines: &[Vec<String>],
    ) -> Result<Vec<ConditionalLine>, ServiceError> {
        self.change(game, Access::Player(player), |draft| {
            draft.require_active()?;
            let owner = draft.seat_of(player)?;
            let read = lines
                .iter()
                .map(|line| read_line(draft, owner, line))
                .collect::<Result<Vec<_>, _>>()?;
            check_unambiguous(owner, &read)?;
            let stored: Vec<ConditionalLine> = read.into_iter().map(|(line, _)| line).collect();
            draft.set_conditional_lines(owner, stored.clone());
            Ok(stored)
        })
        .await
    }
}

/// The answer given when `key` was first accepted for `seat`, if the draft read the log
/// and it was.
fn earlier_answer(draft: &Game, seat: Seat, key: &str) -> Option<MoveAccepted> {
    let log = draft.log()?;
    let index = log
        .iter()
        .position(|mv| mv.seat == seat && mv.key.as_deref() == Some(key))?;
    let record = log[index].clone();
    let replies = log[index + 1..]
        .iter()
        .take_while(|mv| mv.key.is_none() && mv.at == record.at)
        .cloned()
        .collect();
    Some(MoveAccepted { record, replies })
}

/// Whether `request` asks for what `first` (the move its key made) is: the same ply, the
/// same draw offer, and a move text that means the same move there.
fn is_same_request(
    catalog: Catalog,
    draft: &Game,
    first: &MoveRecord,
    request: &MoveRequest,
) -> bool {
    if request.expected_ply != first.ply || request.offer_draw != first.draw_offer {
        return false;
    }
    if request.text == first.long || request.text == first.short {
        return true;
    }
    let Some(log) = draft.log() else {
        return false;
    };
    let start = draft.doc().start_position.as_deref();
    let Ok(mut game) = rules_game(catalog, draft.doc(), start) else {
        return false;
    };
    let before = log.iter().take(first.ply as usize);
    if before
        .map(|mv| game.play_long(&mv.long))
        .any(|r| r.is_err())
    {
        return false;
    }
    game.play_long(&request.text)
        .is_ok_and(|long| long == first.long)
}

/// Advances every conditional line past the move just played (dropping lines it does not
/// match) and plays the owner's next move of a line whenever the owner is to move.
fn follow_conditional_lines(draft: &mut Game) -> Result<Vec<MoveRecord>, ServiceError> {
    let mut replies = Vec::new();
    loop {
        let Some(last) = draft.appended_moves().last().cloned() else {
            return Ok(replies);
        };
        draft.follow_conditional_lines(last.ply, &last.long);
        let Some(seat) = draft.turn_seat() else {
            return Ok(replies);
        };
        let Some(reply) = draft
            .doc()
            .conditional
            .iter()
            .find(|line| line.owner == seat)
            .map(|line| line.moves[0].clone())
        else {
            return Ok(replies);
        };
        replies.push(draft.play_conditional(seat, &reply)?);
    }
}

/// Reads one line against the current position: legal in turn, in canonical long notation,
/// with the seat of each move.
fn read_line(
    draft: &Game,
    owner: Seat,
    line: &[String],
) -> Result<(ConditionalLine, Vec<Seat>), ServiceError> {
    let refuse = |reason: &str| ServiceError::refused(format!("conditional line: {reason}"));
    let mut game = draft.rules().clone_box();
    if game.to_move() == Some(owner) {
        return Err(refuse(
            "it is your move; lines start with another seat's move",
        ));
    }
    let mut moves = Vec::with_capacity(line.len());
    let mut seats = Vec::with_capacity(line.len());
    for text in line {
        let played = game.play(text)?;
        seats.push(played.seat);
        moves.push(played.long);
    }
    if !seats.contains(&owner) {
        return Err(refuse("a line needs at least one of your own moves"));
    }
    let line = ConditionalLine {
        owner,
        from: draft.head().ply,
        moves,
    };
    Ok((line, seats))
}

/// Refuses two lines that agree up to a move of the owner's and then differ there.
fn check_unambiguous(
    owner: Seat,
    lines: &[(ConditionalLine, Vec<Seat>)],
) -> Result<(), ServiceError> {
    for (i, (a, seats)) in lines.iter().enumerate() {
        for (b, _) in &lines[i + 1..] {
            let split = a.moves.iter().zip(&b.moves).position(|(x, y)| x != y);
            if split.is_some_and(|n| seats[n] == owner) {
                return Err(ServiceError::refused(
                    "conditional lines answer the same moves differently",
                ));
            }
        }
    }
    Ok(())
}
