//! What every mailer sends with: the game service, the token authority that mints the
//! links, the mail transport, the clock and the public URL; and the one way a mail goes
//! out once ([`Post::send_once`]): claimed in the store first, its claim released if it
//! cannot be sent.

use std::future::Future;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use missive_auth::{Authority, MoveLink};
use missive_domain::{MailPreference, Notice, Player};
use missive_game::{Clock, GameService};
use missive_mail::{Mail, Mailer};

use crate::NotifyError;
use crate::links::{move_link, reply_address, unsubscribe_link};
use crate::scheduler::NotifyConfig;

/// A mail a mailer composed, with the markers of what else it carries (claimed while
/// composing); none: nothing to send.
pub(crate) type Composed = Option<(Mail, Vec<Notice>)>;

/// The means of sending mail about the games of one service.
#[derive(Clone)]
pub(crate) struct Post {
    /// The game service, the only way to the store.
    pub service: GameService,
    /// Mints the links mails carry.
    pub authority: Arc<Authority>,
    /// Sends the mail.
    pub transport: Arc<dyn Mailer>,
    /// Tells the time.
    pub clock: Arc<dyn Clock>,
    /// The API's public URL, without a trailing slash.
    pub public_url: String,
    /// The notifier's settings.
    pub config: NotifyConfig,
    /// The reply setting (`reply@example.org`): replies to turn mails go to
    /// `reply+{token}@example.org`; none: turn mails offer no reply.
    pub reply_to: Option<String>,
}

impl Post {
    /// The move link `link`, good until a week after `deadline` (the turn's), minted at
    /// `now`.
    pub fn move_link(
        &self,
        link: &MoveLink,
        deadline: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<String, NotifyError> {
        Ok(move_link(
            &self.authority,
            &self.public_url,
            link,
            deadline,
            now,
        )?)
    }

    /// The address a reply about `link`'s turn goes to, when replies are set up.
    pub fn reply_address(&self, link: &MoveLink) -> Option<String> {
        let reply_to = self.reply_to.as_deref()?;
        reply_address(&self.authority, reply_to, link)
    }

    /// The unsubscribe link of `handle`, minted at `now`.
    pub fn unsubscribe_link(
        &self,
        handle: &str,
        now: DateTime<Utc>,
    ) -> Result<String, NotifyError> {
        Ok(unsubscribe_link(
            &self.authority,
            &self.public_url,
            handle,
            now,
        )?)
    }

    /// Claims `notice`, then sends the mail `compose` makes, with the markers of what else
    /// it carries. A notice claimed before sends nothing; a failure releases the claim,
    /// and those of the mail's contents once it was composed. Whether a mail was sent.
    pub async fn send_once(
        &self,
        notice: &Notice,
        compose: impl Future<Output = Result<Composed, NotifyError>>,
    ) -> Result<bool, NotifyError> {
        if !self.service.claim_notice(notice).await? {
            return Ok(false);
        }
        let mut claimed = vec![notice.clone()];
        let sent = async {
            let Some((mail, carried)) = compose.await? else {
                return Ok(false);
            };
            claimed.extend(carried);
            self.transport.send(&mail).await?;
            Ok(true)
        }
        .await;
        if sent.is_err() {
            self.release_all(&claimed).await;
        }
        sent
    }

    /// Releases the claims of `notices` (their mail was not sent), logging any that fails.
    pub async fn release_all(&self, notices: &[Notice]) {
        for notice in notices {
            if let Err(error) = self.service.release_notice(notice).await {
                tracing::error!(?notice, %error, "could not release a notice claim");
            }
        }
    }

    /// Mails each of `handles` who is registered and wants mail the notice and mail
    /// `compose` makes for them (given their unsubscribe link), once each: whether a mail
    /// was sent.
    pub async fn mail_each_once(
        &self,
        handles: &[&str],
        compose: impl Fn(&Player, &str) -> (Notice, Mail),
    ) -> Result<bool, NotifyError> {
        let mut sent = false;
        for handle in handles {
            if self.service.mail_preference(handle).await? == MailPreference::None {
                continue;
            }
            let Some(player) = self.service.registered(handle).await? else {
                continue;
            };
            let unsubscribe = self.unsubscribe_link(handle, self.clock.now())?;
            let (notice, mail) = compose(&player, &unsubscribe);
            sent |= self
                .send_once(&notice, async { Ok(Some((mail, Vec::new()))) })
                .await?;
        }
        Ok(sent)
    }
}
