//! Several small games' writes packed into transactions of their own: how imports and a
//! tournament's start write many games at once, each game whole or not at all.

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::TransactWriteItem;

use super::{DynamoDbStore, MAX_TRANSACTION, sdk};
use crate::StoreError;

impl DynamoDbStore {
    /// Writes the items of several small games in one transaction. Gives each game back
    /// with its answer, or with none when it is to be tried again: a game whose condition
    /// failed (its id is taken) is a conflict; the others of a cancelled transaction, which
    /// took no part in its failure, go again without it.
    async fn transact_games(
        &self,
        games: Vec<(usize, Vec<TransactWriteItem>)>,
    ) -> Vec<(
        usize,
        Vec<TransactWriteItem>,
        Option<Result<(), StoreError>>,
    )> {
        let all: Vec<TransactWriteItem> = games
            .iter()
            .flat_map(|(_, items)| items.iter().cloned())
            .collect();
        self.count_write();
        let sent = self
            .client
            .transact_write_items()
            .set_transact_items(Some(all))
            .send()
            .await;
        let verdicts: Vec<Option<Result<(), StoreError>>> = match sent {
            Ok(_) => games.iter().map(|_| Some(Ok(()))).collect(),
            Err(error) => match cancellation_codes(&error) {
                Some(codes) => {
                    let mut codes = codes.into_iter();
                    games
                        .iter()
                        .map(|(_, items)| {
                            let game_codes: Vec<String> =
                                codes.by_ref().take(items.len()).collect();
                            verdict_of(&game_codes)
                        })
                        .collect()
                }
                None => {
                    let message = sdk(error).to_string();
                    games
                        .iter()
                        .map(|_| Some(Err(StoreError::Backend(message.clone()))))
                        .collect()
                }
            },
        };
        games
            .into_iter()
            .zip(verdicts)
            .map(|((index, items), verdict)| (index, items, verdict))
            .collect()
    }

    /// Writes games each small enough for one transaction (`small`: each game's index in
    /// `answers` and its writes), several to a transaction, trying again those whose
    /// transaction other games' failures cancelled; fills their `answers` (a game never
    /// settled is a conflict) and gives every answer.
    pub(super) async fn transact_small_games(
        &self,
        mut small: Vec<(usize, Vec<TransactWriteItem>)>,
        mut answers: Vec<Option<Result<(), StoreError>>>,
    ) -> Vec<Result<(), StoreError>> {
        for _ in 0..IMPORT_ATTEMPTS {
            if small.is_empty() {
                break;
            }
            let mut again = Vec::new();
            for batch in packed(std::mem::take(&mut small)) {
                for (index, items, answer) in self.transact_games(batch).await {
                    match answer {
                        Some(answer) => answers[index] = Some(answer),
                        None => again.push((index, items)),
                    }
                }
            }
            small = again;
        }
        answers
            .into_iter()
            .map(|answer| answer.unwrap_or(Err(StoreError::Conflict)))
            .collect()
    }
}

/// How often the games of a batched import that lost only to a concurrent transaction or
/// to another game of their transaction are tried again.
const IMPORT_ATTEMPTS: usize = 8;

/// Small games packed into transactions of at most [`MAX_TRANSACTION`] items, in order.
fn packed(
    games: Vec<(usize, Vec<TransactWriteItem>)>,
) -> Vec<Vec<(usize, Vec<TransactWriteItem>)>> {
    let mut batches: Vec<Vec<(usize, Vec<TransactWriteItem>)>> = Vec::new();
    let mut size = 0;
    for game in games {
        if batches.is_empty() || size + game.1.len() > MAX_TRANSACTION {
            batches.push(Vec::new());
            size = 0;
        }
        size += game.1.len();
        if let Some(batch) = batches.last_mut() {
            batch.push(game);
        }
    }
    batches
}

/// The cancellation reason code of every item of a cancelled transaction, in order
/// (`None` for items that did not fail); `None` when the transaction failed otherwise.
fn cancellation_codes<R>(error: &SdkError<TransactWriteItemsError, R>) -> Option<Vec<String>> {
    match error.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) => Some(
            cancelled
                .cancellation_reasons()
                .iter()
                .map(|reason| reason.code().unwrap_or("None").to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// What a game of a cancelled transaction gets from its items' reason codes: a conflict if
/// a condition failed (its id is taken), another try if it only lost a race or was held up
/// by another game, the failure otherwise.
fn verdict_of(codes: &[String]) -> Option<Result<(), StoreError>> {
    let failed: Vec<&str> = codes
        .iter()
        .map(String::as_str)
        .filter(|code| !matches!(*code, "None" | "TransactionConflict"))
        .collect();
    match failed.as_slice() {
        [] => None,
        codes if codes.iter().all(|code| *code == "ConditionalCheckFailed") => {
            Some(Err(StoreError::Conflict))
        }
        codes => Some(Err(StoreError::Backend(format!(
            "transaction cancelled: {}",
            codes.join(", ")
        )))),
    }
}
