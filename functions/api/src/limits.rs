//! Per-client rate limiting: a token bucket per caller, in front of every route.
//!
//! The caller is the subject of a valid bearer access token, else the client's address: in
//! Lambda the source IP of the API Gateway request context, locally the peer address of the
//! connection. Each bucket holds up to `burst` requests and refills at `per_second`; a
//! request that finds its bucket empty is answered 429 `rate-limited` with `Retry-After`
//! (whole seconds until a request is allowed again). The buckets live in the process:
//! behind API Gateway each Lambda instance limits on its own, and the stage's throttling
//! (template.yaml) is the outer limit.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Instant;

use crate::session::Caller;
use crate::{ApiError, App};
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::header::RETRY_AFTER;
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Buckets kept before full (idle) ones are dropped.
const MAX_BUCKETS: usize = 100_000;

/// How many requests a caller may make: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Requests per second a bucket refills with; 0 turns limiting off.
    pub per_second: f64,
    /// Requests a full bucket holds.
    pub burst: u32,
}

/// The token buckets of every caller seen recently.
#[derive(Debug)]
pub struct RateLimiter {
    rate: Rate,
    buckets: Mutex<HashMap<String, Bucket>>,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl RateLimiter {
    /// Buckets for `rate`.
    pub fn new(rate: Rate) -> RateLimiter {
        RateLimiter {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// A limiter that allows everything.
    pub fn off() -> RateLimiter {
        RateLimiter::new(Rate {
            per_second: 0.0,
            burst: 0,
        })
    }

    /// Whether limiting is on.
    pub fn is_on(&self) -> bool {
        self.rate.per_second > 0.0
    }

    /// Takes one request from `caller`'s bucket at `now`: `Ok` if there was one, else the
    /// seconds until there is.
    pub fn take(&self, caller: &str, now: Instant) -> Result<(), u64> {
        if !self.is_on() {
            return Ok(());
        }
        let burst = f64::from(self.rate.burst.max(1));
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_BUCKETS && !buckets.contains_key(caller) {
            let rate = self.rate.per_second;
            buckets.retain(|_, bucket| bucket.refilled(now, rate, burst) < burst);
        }
        let bucket = buckets.entry(caller.to_string()).or_insert(Bucket {
            tokens: burst,
            updated: now,
        });
        bucket.tokens = bucket.refilled(now, self.rate.per_second, burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        Err(((1.0 - bucket.tokens) / self.rate.per_second)
            .ceil()
            .max(1.0) as u64)
    }
}

impl Bucket {
    /// The tokens at `now`, refilled at `rate` up to `burst`.
    fn refilled(&self, now: Instant, rate: f64, burst: f64) -> f64 {
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        (self.tokens + elapsed * rate).min(burst)
    }
}

/// The middleware: answers 429 when the caller's bucket is empty, else passes the request on.
/// The caller is `player:<handle>` for a valid access token, else `ip:<address>`; a caller it
/// verified is left in the request's extensions for the routes.
pub(crate) async fn throttle(State(app): State<App>, mut request: Request, next: Next) -> Response {
    if !app.rate_limiter.is_on() {
        return next.run(request).await;
    }
    let key = match Caller::from_headers(request.headers(), &app) {
        Ok(caller) => {
            let key = format!("player:{}", caller.0);
            request.extensions_mut().insert(caller);
            key
        }
        Err(_) => format!("ip:{}", client_address(request.extensions())),
    };
    match app.rate_limiter.take(&key, Instant::now()) {
        Ok(()) => next.run(request).await,
        Err(seconds) => {
            let mut response = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate-limited",
                format!("too many requests: try again in {seconds} s"),
            )
            .into_response();
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
            response
        }
    }
}

/// The client's address: API Gateway's source IP in Lambda, the peer address locally.
fn client_address(extensions: &Extensions) -> String {
    use lambda_http::request::RequestContext;
    if let Some(RequestContext::ApiGatewayV2(context)) = extensions.get::<RequestContext>()
        && let Some(ip) = &context.http.source_ip
    {
        return ip.clone();
    }
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or_else(|| "unknown".into(), |info| info.0.ip().to_string())
}

/// The address of the client a request comes from, as the rate limiter tells it, for the
/// routes that count per client.
#[derive(Clone, Debug)]
pub struct ClientAddress(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddress(client_address(&parts.extensions)))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn buckets_hold_a_burst_and_refill_at_the_rate() {
        let limiter = RateLimiter::new(Rate {
            per_second: 2.0,
            burst: 3,
        });
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.take("a", start), Ok(()));
        }
        assert_eq!(limiter.take("a", start), Err(1));
        assert_eq!(limiter.take("b", start), Ok(()), "each caller has a bucket");
        let later = start + Duration::from_millis(500);
        assert_eq!(limiter.take("a", later), Ok(()));
        assert_eq!(limiter.take("a", later), Err(1));
        let much_later = start + Duration::from_secs(60);
        for _ in 0..3 {
            assert_eq!(limiter.take("a", much_later), Ok(()));
        }
        assert_eq!(limiter.take("a", much_later), Err(1));
    }

    #[test]
    fn slow_rates_ask_to_wait_longer_and_off_allows_all() {
        let limiter = RateLimiter::new(Rate {
            per_second: 0.1,
            burst: 1,
        });
        let now = Instant::now();
        assert_eq!(limiter.take("a", now), Ok(()));
        assert_eq!(limiter.take("a", now), Err(10));
        let off = RateLimiter::off();
        assert!((0..1000).all(|_| off.take("a", now).is_ok()));
    }
}
