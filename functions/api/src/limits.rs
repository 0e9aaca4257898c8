//! Per-client rate limiting in front of every route: one GCRA cell per caller (the
//! `governor` crate's keyed limiter, sharded so callers do not wait on each other).
//!
//! The caller is the subject of a valid bearer access token, else the client's address: in
//! Lambda the source IP of the API Gateway request context, locally the peer address of the
//! connection, or, when that peer is one of the trusted proxies (none by default), the
//! address its `X-Forwarded-For` names. Each caller may make `burst` requests at once,
//! refilled at `per_second`; a request beyond that is answered 429 `rate-limited` with
//! `Retry-After` (whole seconds until a request is allowed again). The cells live in the
//! process: behind API Gateway each Lambda instance limits on its own, and the stage's
//! throttling (template.yaml) is the outer limit.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter as Gcra};
use ipnet::IpNet;

use crate::caller::Caller;
use crate::{ApiError, App};

/// Callers remembered before those whose cells are full again are forgotten.
const MAX_CALLERS: usize = 100_000;

/// How many requests a caller may make: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Requests per second a caller's allowance refills with; 0 turns limiting off.
    pub per_second: f64,
    /// Requests a caller may make at once.
    pub burst: u32,
}

/// One GCRA cell per caller, in a sharded map, on the clock `C`.
type Cells<C> = Gcra<String, DashMapStateStore<String>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// The allowance of every caller seen recently, telling time by `C` (the system's
/// monotonic clock unless a test brings its own).
pub struct RateLimiter<C: Clock = DefaultClock> {
    cells: Option<Cells<C>>,
    clock: C,
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter")
            .field("on", &self.is_on())
            .finish()
    }
}

impl RateLimiter {
    /// Allowances for `rate` on the system clock.
    pub fn new(rate: Rate) -> RateLimiter {
        RateLimiter::with_clock(rate, DefaultClock::default())
    }

    /// A limiter that allows everything.
    pub fn off() -> RateLimiter {
        RateLimiter::new(Rate {
            per_second: 0.0,
            burst: 0,
        })
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    /// Allowances for `rate`, telling time by `clock`.
    pub fn with_clock(rate: Rate, clock: C) -> RateLimiter<C> {
        let cells = quota(rate).map(|quota| Gcra::dashmap_with_clock(quota, clock.clone()));
        RateLimiter { cells, clock }
    }

    /// Whether limiting is on.
    pub fn is_on(&self) -> bool {
        self.cells.is_some()
    }

    /// Counts one request of `caller`: `Ok` if it is allowed, else the whole seconds (at
    /// least 1) until one is.
    pub fn take(&self, caller: &str) -> Result<(), u64> {
        let Some(cells) = &self.cells else {
            return Ok(());
        };
        if cells.len() >= MAX_CALLERS {
            cells.retain_recent();
        }
        cells.check_key(&caller.to_string()).map_err(|refused| {
            let wait = refused.wait_time_from(self.clock.now());
            wait.as_secs_f64().ceil().max(1.0) as u64
        })
    }
}

/// The GCRA quota of `rate`: one request every `1 / per_second` seconds, `burst` at once;
/// `None` when limiting is off.
fn quota(rate: Rate) -> Option<Quota> {
    if rate.per_second <= 0.0 || !rate.per_second.is_finite() {
        return None;
    }
    let period = Duration::from_secs_f64(1.0 / rate.per_second).max(Duration::from_nanos(1));
    let burst = NonZeroU32::new(rate.burst.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(period).map(|quota| quota.allow_burst(burst))
}

/// A proxy trusted to name the client in `X-Forwarded-For`: an address or a CIDR block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrustedProxy(pub IpNet);

impl FromStr for TrustedProxy {
    type Err = String;

    fn from_str(text: &str) -> Result<TrustedProxy, String> {
        let text = text.trim();
        text.parse::<IpNet>()
            .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
            .map(TrustedProxy)
            .map_err(|_| format!("`{text}` is not an address or a CIDR block"))
    }
}

/// The proxies whose `X-Forwarded-For` is believed; empty by default, so the header is
/// ignored and the peer address is the client.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Arc<Vec<IpNet>>);

impl TrustedProxies {
    /// Trust `proxies`.
    pub fn new(proxies: impl IntoIterator<Item = TrustedProxy>) -> TrustedProxies {
        TrustedProxies(Arc::new(proxies.into_iter().map(|p| p.0).collect()))
    }

    /// Whether `address` is one of the trusted proxies.
    pub fn trusts(&self, address: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&address))
    }

    /// The client behind a connection from `peer`: `peer` itself unless it is trusted;
    /// then the last `X-Forwarded-For` entry that is not a trusted proxy (each proxy
    /// appends the address it was reached from), or the first entry if all are trusted.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let chain: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .filter_map(|entry| entry.trim().parse().ok())
            .collect();
        chain
            .iter()
            .rev()
            .find(|address| !self.trusts(**address))
            .or(chain.first())
            .copied()
            .unwrap_or(peer)
    }
}

/// The middleware: answers 429 when the caller is over its allowance, else passes the
/// request on. The caller is `player:<handle>` for a valid access token, else
/// `ip:<address>`; a caller it verified is left in the request's extensions for the routes.
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
        Err(_) => format!(
            "ip:{}",
            client_address(
                request.extensions(),
                request.headers(),
                &app.trusted_proxies
            )
        ),
    };
    match app.rate_limiter.take(&key) {
        Ok(()) => next.run(request).await,
        Err(seconds) => ApiError::rate_limited(
            format!("too many requests: try again in {seconds} s"),
            seconds,
        )
        .into_response(),
    }
}

/// The client's address: API Gateway's source IP in Lambda, else the connection's peer
/// (or, through a trusted proxy, the client it names).
fn client_address(
    extensions: &Extensions,
    headers: &HeaderMap,
    proxies: &TrustedProxies,
) -> String {
    use lambda_http::request::RequestContext;
    if let Some(RequestContext::ApiGatewayV2(context)) = extensions.get::<RequestContext>()
        && let Some(ip) = &context.http.source_ip
    {
        return ip.clone();
    }
    extensions.get::<ConnectInfo<SocketAddr>>().map_or_else(
        || "unknown".into(),
        |info| proxies.client(info.0.ip(), headers).to_string(),
    )
}

/// The address of the client a request comes from, as the rate limiter tells it, for the
/// routes that count per client.
#[derive(Clone, Debug)]
pub struct ClientAddress(pub String);

impl FromRequestParts<App> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let proxies = &app.trusted_proxies;
        Ok(ClientAddress(client_address(
            &parts.extensions,
            &parts.headers,
            proxies,
        )))
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    fn limiter(per_second: f64, burst: u32) -> (RateLimiter<FakeRelativeClock>, FakeRelativeClock) {
        let clock = FakeRelativeClock::default();
        let rate = Rate { per_second, burst };
        (RateLimiter::with_clock(rate, clock.clone()), clock)
    }

    #[test]
    fn callers_have_a_burst_refilled_at_the_rate() {
        let (limiter, clock) = limiter(2.0, 3);
        for _ in 0..3 {
            assert_eq!(limiter.take("a"), Ok(()));
        }
        assert_eq!(limiter.take("a"), Err(1));
        assert_eq!(
            limiter.take("b"),
            Ok(()),
            "each caller has its own allowance"
        );
        clock.advance(Duration::from_millis(500));
        assert_eq!(limiter.take("a"), Ok(()));
        assert_eq!(limiter.take("a"), Err(1));
        clock.advance(Duration::from_secs(60));
        for _ in 0..3 {
            assert_eq!(limiter.take("a"), Ok(()));
        }
        assert_eq!(limiter.take("a"), Err(1));
    }

    #[test]
    fn slow_rates_ask_to_wait_longer_and_off_allows_all() {
        let (limiter, _) = limiter(0.1, 1);
        assert_eq!(limiter.take("a"), Ok(()));
        assert_eq!(limiter.take("a"), Err(10));
        let off = RateLimiter::off();
        assert!(!off.is_on());
        assert!((0..1000).all(|_| off.take("a").is_ok()));
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let proxies =
            TrustedProxies::new(["10.0.0.0/8".parse().unwrap(), "192.0.2.7".parse().unwrap()]);
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "198.51.100.1, 203.0.113.9, 10.1.1.1".parse().unwrap(),
        );
        let stranger: IpAddr = "198.51.100.200".parse().unwrap();
        assert_eq!(
            proxies.client(stranger, &headers),
            stranger,
            "an untrusted peer is the client"
        );
        let proxy: IpAddr = "10.2.3.4".parse().unwrap();
        let client: IpAddr = "203.0.113.9".parse().unwrap();
        assert_eq!(
            proxies.client(proxy, &headers),
            client,
            "the last untrusted hop"
        );
        assert_eq!(
            proxies.client("192.0.2.7".parse().unwrap(), &HeaderMap::new()),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            TrustedProxies::default().client(proxy, &headers),
            proxy,
            "none trusted by default"
        );
        assert!("nonsense".parse::<TrustedProxy>().is_err());
    }
}
