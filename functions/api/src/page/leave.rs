//! A signed-in player's vacation page, `/me/{token}/vacation`: the days used and left this
//! year, the leave under way (with a button that ends it now), the leaves to come (each with
//! a button that cancels it), and a form that takes a leave. `GET` changes nothing; every
//! change is a `POST` of the page's forms, decided by the game service.

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use missive_game::PeriodView;
use missive_game::VacationBalance;
use serde::Deserialize;

use super::html::{escape, respond};
use super::me::{failed, signed_in};
use super::problem::{self, Problem, Via};
use super::view::{days, utc};
use crate::{ApiError, App};

/// What the vacation page's forms send.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct LeaveForm {
    /// `take` or `end`.
    #[serde(default)]
    action: String,
    /// The first day of a leave to take (`YYYY-MM-DD`, UTC; today means now).
    #[serde(default)]
    start: String,
    /// How many days to take.
    #[serde(default)]
    days: String,
    /// The leave to cancel or end: its start, in milliseconds since the epoch.
    #[serde(default)]
    leave: String,
}

/// `GET /me/{token}/vacation`: the balance, the leaves, the form.
pub(crate) async fn show(
    State(app): State<App>,
    Path(token): Path<String>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let balance = app.service.vacation_balance(&me).await.map_err(failed)?;
    Ok(page(&app, StatusCode::OK, &token, &balance, ""))
}

/// `POST /me/{token}/vacation`: takes, cancels or ends a leave, then shows the page again
/// with what happened, or why it was refused (nothing changed).
pub(crate) async fn act(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<LeaveForm>, FormRejection>,
) -> Result<Response, Problem> {
    let me = signed_in(&app, &token)?;
    let form = form.map(|Form(f)| f).unwrap_or_default();
    let outcome = match form.action.as_str() {
        "take" => take(&app, &me, &form).await,
        "end" => end(&app, &me, &form).await,
        _ => Err(ApiError::bad_request(
            "choose to take, cancel or end a leave",
        )),
    };
    let balance = app.service.vacation_balance(&me).await.map_err(failed)?;
    let (status, notice) = problem::outcome(outcome, Via::Session)?;
    Ok(page(&app, status, &token, &balance, &notice))
}

/// Takes the leave the form asks for: what was done, in words.
async fn take(app: &App, me: &str, form: &LeaveForm) -> Result<String, ApiError> {
    let day = NaiveDate::parse_from_str(form.start.trim(), "%Y-%m-%d")
        .map_err(|_| ApiError::bad_request("give the first day as a date"))?;
    let days: u32 = form
        .days
        .trim()
        .parse()
        .map_err(|_| ApiError::bad_request("give the number of days"))?;
    let now = app.clock.now();
    let start = match day == now.date_naive() {
        true => now,
        false => day.and_time(NaiveTime::MIN).and_utc(),
    };
    let periods = app.service.take_vacation(me, start, days).await?;
    let taken = periods.iter().find(|p| p.start == start).copied();
    Ok(match taken {
        Some(period) => format!("Your leave {} is booked.", span(&PeriodView::from(period))),
        None => "Your leave is booked.".into(),
    })
}

/// Cancels or ends the leave the form names: what was done, in words.
async fn end(app: &App, me: &str, form: &LeaveForm) -> Result<String, ApiError> {
    let start = form
        .leave
        .trim()
        .parse::<i64>()
        .ok()
        .and_then(DateTime::<Utc>::from_timestamp_millis)
        .ok_or_else(|| ApiError::bad_request("name the leave by its start"))?;
    let begun = start <= app.clock.now();
    app.service.end_vacation(me, start).await?;
    Ok(match begun {
        true => "Your leave is over: your clocks run again, and the days not used are back.",
        false => "The leave is cancelled, and its days are back.",
    }
    .into())
}

/// `from … until …` of a leave.
fn span(period: &PeriodView) -> String {
    format!("from {} until {}", utc(period.start), utc(period.end))
}

/// The vacation page of the player of `token`: `notice` (markup), the balance, the leaves
/// and the form.
fn page(
    app: &App,
    status: StatusCode,
    token: &str,
    balance: &VacationBalance,
    notice: &str,
) -> Response {
    let now = app.clock.now();
    let current = balance
        .current
        .map(|leave| {
            format!(
                "<h2>Now</h2><p class=\"on-leave\">You are on leave {}: your clocks stand \
                 still.</p>{}",
                span(&leave),
                end_form(&leave, "end-leave", "End my leave now")
            )
        })
        .unwrap_or_default();
    let coming: String = balance
        .periods
        .iter()
        .filter(|p| p.start > now)
        .map(|p| {
            format!(
                "<li>{}{}</li>",
                escape(&span(p)),
                end_form(
                    p,
                    &format!("cancel-{}", p.start.timestamp_millis()),
                    "Cancel"
                )
            )
        })
        .collect();
    let coming = match coming.is_empty() {
        true => String::new(),
        false => format!("<h2>To come</h2><ul class=\"leaves\">{coming}</ul>"),
    };
    let body = format!(
        "<h1>Vacation</h1>{notice}<section class=\"panel\"><p>In {year}: {used} taken or \
         booked, <strong>{left} of {allowance} days left</strong>.</p>{current}{coming}\
         <h2>Take a leave</h2><form method=\"post\" class=\"take\"><input type=\"hidden\" \
         name=\"action\" value=\"take\"><label for=\"start\">First day (UTC; today starts \
         now)</label><input type=\"date\" id=\"start\" name=\"start\" value=\"{today}\" \
         min=\"{today}\" required><label for=\"days\">Days</label><input type=\"number\" \
         id=\"days\" name=\"days\" value=\"1\" min=\"1\" max=\"{allowance}\" required>\
         <div class=\"actions\"><button class=\"primary\" id=\"take-leave\">Take leave</button>\
         </div></form><p class=\"detail\">You may take {allowance} days of leave a calendar \
         year, in whole days. Meanwhile your clocks stand still in every game, and your \
         opponents are told by mail when the leave starts and when it ends. A leave can be \
         cancelled before it starts or ended early: the days not used are given back.</p>\
         <p><a class=\"button\" href=\"../{token}\">Your games</a></p></section>",
        year = balance.year,
        used = days(balance.used),
        left = balance.left,
        allowance = balance.allowance,
        today = now.date_naive(),
        token = escape(token),
    );
    respond(status, "Vacation", &body)
}

/// The form that cancels or ends `leave`, its button `id` and `label`.
fn end_form(leave: &PeriodView, id: &str, label: &str) -> String {
    format!(
        "<form method=\"post\" class=\"inline\"><input type=\"hidden\" name=\"action\" \
         value=\"end\"><input type=\"hidden\" name=\"leave\" value=\"{}\"><button \
         class=\"danger\" id=\"{}\">{}</button></form>",
        leave.start.timestamp_millis(),
        escape(id),
        escape(label)
    )
}
