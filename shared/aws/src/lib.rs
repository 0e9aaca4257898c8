//! The AWS configuration every client of Missive is built from: the DynamoDB store, SES,
//! the SSM signing-key parameter and the inbound function's S3 bucket.
//!
//! One HTTPS client serves them all: hyper with rustls, its cryptography by ring (the one
//! provider linked into the functions), trusting the platform's roots (the
//! `SSL_CERT_FILE` or `SSL_CERT_DIR` named, else the system's store). The configuration
//! (region, credentials, endpoints such as `AWS_ENDPOINT_URL_DYNAMODB`) is read from the
//! standard AWS settings once per process, so a cold start resolves credentials once.

use aws_config::{BehaviorVersion, SdkConfig};
use aws_smithy_http_client::tls::{Provider, rustls_provider::CryptoMode};
use aws_smithy_http_client::Builder;
use tokio::sync::OnceCell;

/// The process's AWS configuration from the standard settings (environment, profile,
/// container or instance credentials), its HTTPS client rustls over ring; loaded on the
/// first call, the same value after.
pub async fn config() -> SdkConfig {
    static CONFIG: OnceCell<SdkConfig> = OnceCell::const_new();
    CONFIG
        .get_or_init(|| async {
            aws_config::defaults(BehaviorVersion::latest())
                .http_client(
                    Builder::new()
                        .tls_provider(Provider::Rustls(CryptoMode::Ring))
                        .build_https(),
                )
                .load()
                .await
        })
        .await
        .clone()
}
