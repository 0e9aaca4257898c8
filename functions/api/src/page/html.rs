//! The pages' frame: escaping, the document around a page's body, its style sheet, and the
//! headers every page answers with.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue, LOCATION, REFERRER_POLICY};
use axum::http::{HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::ApiError;

/// The style sheet of every page: one column on a phone (the board at most 55% of the
/// screen's height and the move form first in the panel, so that it starts within the
/// first screen), board and panel
/// side by side on a wide screen, touch targets at least 48 pixels high, tables wider than
/// the screen scrolling in their own box; the board's spots marked for tap to move (see
/// `tap`).
const STYLE: &str = "\
:root{color-scheme:light;--ink:#1d2330;--muted:#5a6272;--line:#d8dce3;--accent:#1f5fbf;\
--danger:#a3261d;--paper:#f6f4ef;--card:#fff}\
*{box-sizing:border-box}\
body{margin:0;font:17px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif;\
color:var(--ink);background:var(--paper)}\
header{background:#26324a;color:#fff;padding:.6rem 1rem}\
header span{font-weight:600;letter-spacing:.04em}\
main{max-width:72rem;margin:0 auto;padding:1rem}\
h1{font-size:1.4rem;margin:.2rem 0 .6rem}\
h2{font-size:1.1rem;margin:1rem 0 .4rem}\
.layout{display:grid;gap:1rem;grid-template-columns:1fr}\
@media(min-width:56rem){.layout{grid-template-columns:minmax(0,3fr) minmax(18rem,2fr)}}\
.board{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.5rem}\
.board svg{display:block;width:100%;height:auto;max-height:85vh}\
@media(max-width:55.99rem){.board svg{max-height:55vh}\
.panel{display:flex;flex-direction:column}\
.panel form.move,.panel form.move+.detail,.panel form.move+.detail+details{order:-1}}\
.board svg.tappable [data-spot]{cursor:pointer}\
.board svg .spot.tap-from{fill:#f5c518;fill-opacity:.6}\
.board svg .spot.tap-to{fill:#1f5fbf;fill-opacity:.35;stroke:#1f5fbf;stroke-width:3}\
.tap-choices{margin:0 0 .6rem}.tap-choices[hidden]{display:none}\
.scroll{overflow-x:auto;max-width:100%}\
.panel{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.8rem 1rem}\
.players{list-style:none;padding:0;margin:0 0 .5rem}\
.players li{padding:.15rem 0}\
.players .to-move{font-weight:700}\
.notice{border-left:.3rem solid var(--accent);background:#eaf1fb;padding:.6rem .8rem;\
border-radius:.3rem;margin:0 0 1rem}\
.notice.problem{border-color:var(--danger);background:#fbecea}\
.clock{font-weight:600}\
.detail{color:var(--muted);font-size:.9rem}\
.moves{max-height:20rem;overflow:auto;border-top:1px solid var(--line)}\
.moves table{border-collapse:collapse;width:100%;font-size:.95rem}\
.moves td,.moves th{padding:.2rem .4rem;text-align:left;border-bottom:1px solid var(--line)}\
.moves .at{display:block;color:var(--muted);font-size:.75rem;white-space:nowrap}\
.moves th.round{color:var(--muted);font-weight:400;width:2.5rem}\
.moves td.last{background:#fff6cc}\
form{margin:.8rem 0}\
label{display:block;font-weight:600;margin:.4rem 0 .2rem}\
input[type=text],input[type=email],input[type=date],input[type=number],select,textarea{width:100%;\
min-height:3rem;font:inherit;font-size:1.1rem;padding:.4rem .6rem;border:1px solid #9aa3b2;\
border-radius:.4rem}\
.check{display:flex;align-items:center;gap:.5rem;font-weight:400;min-height:3rem}\
.check input{width:1.4rem;height:1.4rem}\
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.6rem}\
button,.button{min-height:3rem;min-width:7rem;padding:.5rem 1rem;font-size:1.05rem;\
border-radius:.4rem;border:1px solid #9aa3b2;background:#eef0f4;color:var(--ink);\
cursor:pointer;text-decoration:none;display:inline-flex;align-items:center;justify-content:center}\
button.primary{background:var(--accent);border-color:var(--accent);color:#fff;flex:1 1 12rem}\
button.danger{border-color:var(--danger);color:var(--danger)}\
.legal{font-family:ui-monospace,monospace;font-size:.9rem;color:var(--muted);word-spacing:.4rem}\
.games,.leaves{padding-left:1.2rem}\
.games li,.leaves li,ul.lines li{margin:.5rem 0}\
ul.lines{list-style:none;padding-left:0}\
form.inline{display:inline-block;margin:0 0 0 .5rem}\
.line{font-family:ui-monospace,monospace}\
.on-leave{font-weight:600;color:#7a4b00}\
footer{color:var(--muted);font-size:.85rem;text-align:center;padding:1rem}";

/// `text` with the characters that mean something in HTML written as entities, safe in
/// element content and in quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole HTML document titled `title` (escaped here) around `body` (markup as it is).
pub fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex, nofollow\">\
         <title>{} · Missive</title><style>{STYLE}</style></head>\
         <body><header><span>Missive</span></header><main>{body}</main>\
         <footer>Missive · correspondence chess</footer></body></html>\n",
        escape(title)
    )
}

/// A page answer: `status`, the document, and headers that keep it out of caches and keep
/// the link's token out of `Referer` headers.
pub fn respond(status: StatusCode, title: &str, body: &str) -> Response {
    (
        status,
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
            (
                HeaderName::from_static("x-robots-tag"),
                HeaderValue::from_static("noindex"),
            ),
        ],
        document(title, body),
    )
        .into_response()
}

/// The notice of an act done: `said`, in words.
pub fn done(said: &str) -> String {
    format!(
        "<div class=\"notice\" data-code=\"done\"><p>{}</p></div>",
        escape(said)
    )
}

/// The notice of an act refused: the error's code, and its reason; nothing was changed.
pub fn refused(error: &ApiError) -> String {
    format!(
        "<div class=\"notice problem\" data-code=\"{}\"><p>Nothing was changed: {}.</p></div>",
        escape(error.code),
        escape(&error.message)
    )
}

/// `303 See Other` to `location` (a path, relative to the page's), with the headers of
/// every page; an internal error if `location` is no header value.
pub fn redirect(location: &str) -> Result<Response, ApiError> {
    let location = HeaderValue::from_str(location)
        .map_err(|e| ApiError::internal("the page to go on to has no valid address", e))?;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (LOCATION, location),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
        ],
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            escape("<b a=\"x\" c='y'>&</b>"),
            "&lt;b a=&quot;x&quot; c=&#39;y&#39;&gt;&amp;&lt;/b&gt;"
        );
    }
}
