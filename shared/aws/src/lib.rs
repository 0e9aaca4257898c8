//! The AWS configuration every client of Missive is built from: the DynamoDB store, SES,
//! the SSM key parameters, API Gateway's `@connections`, and the region and credentials of
//! the inbound function's signed S3 GET (which has the same [`timeouts`] and [`retries`]).
//!
//! One HTTPS client serves them all: hyper with rustls, its cryptography by ring (the one
//! provider linked into the functions), trusting the platform's roots (the
//! `SSL_CERT_FILE` or `SSL_CERT_DIR` named, else the system's store). The configuration
//! (region, credentials, endpoints such as `AWS_ENDPOINT_URL_DYNAMODB`) is read from the
//! standard AWS settings, and every client has the same [`timeouts`] and [`retries`].

#[cfg(feature = "testing")]
pub mod testing;

use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, SdkConfig};
use aws_smithy_http_client::Builder;
use aws_smithy_http_client::tls::{Provider, rustls_provider::CryptoMode};

/// An AWS configuration from the standard settings (environment, profile, container or
/// instance credentials), its HTTPS client rustls over ring, with [`timeouts`] and
/// [`retries`]. Each call makes a new one, with its own connection pool: a pool's
/// connections belong to the runtime that opened them, so one configuration is not shared
/// between runtimes (a process's tests each have their own).
pub async fn config() -> SdkConfig {
    aws_config::defaults(BehaviorVersion::latest())
        .http_client(
            Builder::new()
                .tls_provider(Provider::Rustls(CryptoMode::Ring))
                .build_https(),
        )
        .timeout_config(timeouts())
        .retry_config(retries())
        .load()
        .await
}

/// Every AWS client's timeouts: a connection is made within 2 s, an attempt (one HTTP
/// request, the largest DynamoDB transaction included) answered within 5 s, and a call with
/// its retries done within 12 s. A black-holed endpoint so fails a call in seconds rather
/// than holding it (and a server's shutdown) for the SDK's default of no limit; every call
/// still ends within the api function's 30 s.
pub fn timeouts() -> TimeoutConfig {
    TimeoutConfig::builder()
        .connect_timeout(Duration::from_secs(2))
        .operation_attempt_timeout(Duration::from_secs(5))
        .operation_timeout(Duration::from_secs(12))
        .build()
}

/// Every AWS client's retries: the SDK's standard mode (exponential backoff with jitter, on
/// throttling, 5xx and timeouts; a failed condition is never retried), at most 3 attempts
/// per call. A DynamoDB transaction (a move's append among them) carries the idempotency
/// token the SDK fills once per call, so a retry of one whose first attempt landed unseen
/// succeeds as that attempt did rather than failing its own condition.
pub fn retries() -> RetryConfig {
    RetryConfig::standard().with_max_attempts(3)
}
