//! A signed-in player's lobby, `/me/{token}/challenges`: the open challenges, filtered as
//! `GET /v1/challenges` filters them (variant, time control, the creator's rating), newest
//! first, each with a button that accepts it (`action=accept` with `challenge`, as
//! `POST /v1/challenges/{id}/accept`), and a form that publishes one (`action=publish`, as
//! `POST /v1/challenges`, within the cap on open challenges: 409 `too-many-challenges`
//! beyond it); both post to `/me/{token}/challenges`. A refusal shows the page again with the reason and
//! the API's status.

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use missive_domain::{ChallengeId, Seat};
use missive_game::{ChallengeView, NewChallenge};
use missive_notify::compose::time_control_words;
use missive_rules::registry;
use serde::Deserialize;

use super::html::{escape, respond};
use super::me::signed_in;
use super::problem::{Problem, Via, outcome};
use super::terms::TermsForm;
use crate::challenges::lobby_filter;
use crate::{ApiError, App};

/// Challenges listed on the page.
const LISTED: usize = 50;

/// The filter form's fields, as the page's query carries them (empty: any).
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct Filter {
    #[serde(default)]
    variant: String,
    /// `days-per-move:D` or `iccf:N/D`.
    #[serde(default)]
    time_control: String,
    #[serde(default)]
    min_rating: String,
    #[serde(default)]
    max_rating: String,
}

/// What the page's forms send: the publish form, or an accept button.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PublishForm {
    /// `publish` or `accept`.
    #[serde(default)]
    action: String,
    /// The challenge to accept.
    #[serde(default)]
    challenge: String,
    #[serde(flatten)]
    terms: TermsForm,
    /// The creator's seat from 0; random if empty.
    #[serde(default)]
    seat: String,
    #[serde(default)]
    min_rating: String,
    #[serde(default)]
    max_rating: String,
}

/// `GET /me/{token}/challenges`: the open challenges the filter keeps, and the forms.
pub(crate) async fn show(
    State(app): State<App>,
    Path(token): Path<String>,
    query: Result<Query<Filter>, QueryRejection>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let filter = query.map(|Query(q)| q).unwrap_or_default();
    let shown = Shown {
        token: &token,
        me: &me,
        filter: &filter,
        publish: &PublishForm::default(),
    };
    shown.page(&app, StatusCode::OK, "").await
}

/// `POST /me/{token}/challenges`: publishes the challenge the form describes, or accepts
/// the one it names (taking its first open seat); the page again with what was done, or
/// why not (what was typed kept).
pub(crate) async fn act(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<PublishForm>, FormRejection>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let form = form.map(|Form(f)| f).unwrap_or_default();
    let done = match form.action.as_str() {
        "publish" => publish(&app, &me, &form).await,
        "accept" => accept(&app, &me, &form.challenge).await,
        _ => Err(ApiError::bad_request(
            "choose to publish or accept a challenge",
        )),
    };
    let (status, notice) = outcome(done, Via::Session)?;
    let kept = match status.is_success() || form.action != "publish" {
        true => PublishForm::default(),
        false => form,
    };
    let shown = Shown {
        token: &token,
        me: &me,
        filter: &Filter::default(),
        publish: &kept,
    };
    shown.page(&app, status, &notice).await
}

/// Publishes the challenge `form` describes for `me`: what was done, in words.
async fn publish(app: &App, me: &str, form: &PublishForm) -> Result<String, ApiError> {
    app.service
        .publish_challenge(new_challenge(me, form)?)
        .await?;
    Ok("Your challenge is published: it is open to anyone for 14 days.".into())
}

/// Accepts challenge `id` for `me`: what was done, in words.
async fn accept(app: &App, me: &str, id: &str) -> Result<String, ApiError> {
    let accepted = app
        .service
        .accept_challenge(&ChallengeId(id.to_string()), me, None)
        .await?;
    Ok(match accepted.game {
        Some(_) => "You accepted: the game has begun, and is listed among your games; a mail \
                    brings you a link whenever it is your move."
            .into(),
        None => "You accepted: the game begins once every seat is taken.".into(),
    })
}

/// The challenge `form` asks `me` to publish.
fn new_challenge(me: &str, form: &PublishForm) -> Result<NewChallenge, ApiError> {
    let seat = optional(&form.seat, "seat")?.map(|seat: u8| Seat(seat));
    Ok(NewChallenge {
        creator: me.to_string(),
        variant: form.terms.variant.clone(),
        options: String::new(),
        time_control: form.terms.time_control()?,
        rated: form.terms.rated(),
        seat,
        min_rating: optional(&form.min_rating, "least rating")?,
        max_rating: optional(&form.max_rating, "highest rating")?,
    })
}

/// The number in `text` for the field `name`; `None` if empty, 400 if it is no number.
fn optional<N: std::str::FromStr>(text: &str, name: &str) -> Result<Option<N>, ApiError> {
    match text.trim() {
        "" => Ok(None),
        text => text
            .parse()
            .map(Some)
            .map_err(|_| ApiError::bad_request(format!("give the {name} as a whole number"))),
    }
}

/// The lobby page as one player sees it.
struct Shown<'a> {
    token: &'a str,
    me: &'a str,
    filter: &'a Filter,
    publish: &'a PublishForm,
}

impl Shown<'_> {
    /// The page: `notice` (markup), the filter, the challenges it keeps (or why the filter
    /// was refused: 400), the publish form.
    async fn page(&self, app: &App, status: StatusCode, notice: &str) -> Result<Response, Problem> {
        let listed = self.challenges(app).await;
        let (status, notice, list) = match (listed, status) {
            (Ok(list), status) => (status, notice.to_string(), list),
            (Err(error), StatusCode::OK) => {
                let (status, notice) = outcome(Err(error), Via::Session)?;
                (status, notice, String::new())
            }
            (Err(error), _) => return Err(Problem::via(error, Via::Session)),
        };
        let body = format!(
            "<h1>Open challenges</h1>{notice}<section class=\"panel\"><form method=\"get\" \
             class=\"filter\">{}<div class=\"actions\"><button id=\"filter\">Show</button></div>\
             </form>{list}</section><section class=\"panel\"><h2>Publish a challenge</h2>\
             <form method=\"post\" class=\"publish\">{}</form></section><p><a class=\"button\" \
             href=\"../{token}\">Your games</a></p>",
            self.filter_fields(),
            self.publish_fields(),
            token = escape(self.token),
        );
        Ok(respond(status, "Open challenges", &body))
    }

    /// The challenges the filter keeps, as a list with their buttons.
    async fn challenges(&self, app: &App) -> Result<String, ApiError> {
        let f = self.filter;
        let nonempty = |text: &str| Some(text.trim().to_string()).filter(|t| !t.is_empty());
        let (filter, rating) = lobby_filter(
            nonempty(&f.variant),
            nonempty(&f.time_control).as_deref(),
            optional(&f.min_rating, "least rating")?,
            optional(&f.max_rating, "highest rating")?,
        )?;
        let page = app
            .service
            .open_challenges(&filter, rating, None, LISTED)
            .await?;
        let rows: String = page.items.iter().map(|c| self.row(c)).collect();
        Ok(match rows.is_empty() {
            true => "<p>No open challenge is listed.</p>".into(),
            false => format!("<ul class=\"games challenges\">{rows}</ul>"),
        })
    }

    /// One challenge: its terms and creator, and the button that accepts it (none on
    /// one's own).
    fn row(&self, challenge: &ChallengeView) -> String {
        let rating = challenge
            .creator_rating
            .map(|r| format!(" ({})", r.rating))
            .unwrap_or_default();
        let range = match (challenge.min_rating, challenge.max_rating) {
            (None, None) => String::new(),
            (min, max) => format!(
                " · for ratings {} to {}",
                min.map_or("any".into(), |m| m.to_string()),
                max.map_or("any".into(), |m| m.to_string())
            ),
        };
        let button = match challenge.creator == self.me {
            true => "<span class=\"detail\">yours</span>".to_string(),
            false => format!(
                "<form method=\"post\" class=\"inline\"><input type=\"hidden\" name=\"action\" \
                 value=\"accept\"><input type=\"hidden\" name=\"challenge\" value=\"{id}\">\
                 <button class=\"primary\" id=\"accept-{id}\">Accept</button></form>",
                id = escape(&challenge.id.0)
            ),
        };
        format!(
            "<li data-challenge=\"{}\"><span>{} · {} · {} · by {}{rating}{range}</span>\
             <span class=\"actions\">{button}</span></li>",
            escape(&challenge.id.0),
            escape(&challenge.variant),
            escape(&time_control_words(challenge.time_control)),
            if challenge.rated { "rated" } else { "unrated" },
            escape(&challenge.creator),
        )
    }

    /// The filter's fields, showing its values.
    fn filter_fields(&self) -> String {
        let f = self.filter;
        let variants: String = registry::variants()
            .iter()
            .map(|v| {
                let chosen = if v.id() == f.variant { " selected" } else { "" };
                format!(
                    "<option value=\"{id}\"{chosen}>{id}</option>",
                    id = escape(v.id())
                )
            })
            .collect();
        format!(
            "<label for=\"filter-variant\">Variant</label><select id=\"filter-variant\" \
             name=\"variant\"><option value=\"\">Any</option>{variants}</select><label \
             for=\"filter-clock\">Time control (<code>days-per-move:3</code>, \
             <code>iccf:10/50</code>; empty: any)</label><input type=\"text\" \
             id=\"filter-clock\" name=\"time_control\" value=\"{}\" autocapitalize=\"off\" \
             spellcheck=\"false\"><label for=\"filter-min\">Creator rated at least</label>\
             <input type=\"number\" id=\"filter-min\" name=\"min_rating\" value=\"{}\"><label \
             for=\"filter-max\">Creator rated at most</label><input type=\"number\" \
             id=\"filter-max\" name=\"max_rating\" value=\"{}\">",
            escape(&f.time_control),
            escape(&f.min_rating),
            escape(&f.max_rating),
        )
    }

    /// The publish form's fields, showing what was typed.
    fn publish_fields(&self) -> String {
        let p = self.publish;
        let seat = |value: &str, label: &str| {
            let chosen = if p.seat == value { " selected" } else { "" };
            format!("<option value=\"{value}\"{chosen}>{label}</option>")
        };
        format!(
            "<input type=\"hidden\" name=\"action\" value=\"publish\">{}<label \
             for=\"seat\">Your seat</label><select id=\"seat\" name=\"seat\">{}{}{}\
             </select><label for=\"min-rating\">Least rating to accept (empty: any)</label>\
             <input type=\"number\" id=\"min-rating\" name=\"min_rating\" value=\"{}\"><label \
             for=\"max-rating\">Highest rating to accept (empty: any)</label><input \
             type=\"number\" id=\"max-rating\" name=\"max_rating\" value=\"{}\"><div \
             class=\"actions\"><button class=\"primary\" id=\"publish\">Publish</button></div>\
             <p class=\"detail\">Open for 14 days, until someone accepts it or you withdraw it; \
             you may have a limited number open at once.</p>",
            p.terms.fields(),
            seat("", "Either, at random"),
            seat("0", "First (moves first)"),
            seat("1", "Second"),
            escape(&p.min_rating),
            escape(&p.max_rating),
        )
    }
}
