//! S3's `GetObject`, without S3's client: an HTTPS GET signed with AWS Signature V4, sent
//! by reqwest (rustls over ring, the TLS stack every function links), with the timeouts and
//! retries of every other AWS client ([`missive_aws::timeouts`], [`missive_aws::retries`]).
//!
//! The object's address is the SDK's: the configured endpoint (`AWS_ENDPOINT_URL_S3`, else
//! `AWS_ENDPOINT_URL`, or their profile settings) path-style, `{endpoint}/{bucket}/{key}`;
//! otherwise S3's regional endpoint, virtual-hosted (path-style for a bucket whose name has
//! a dot, which the wildcard certificate does not cover).

use std::error::Error;
use std::time::{Duration, SystemTime};

use aws_credential_types::provider::{ProvideCredentials, SharedCredentialsProvider};
use aws_sigv4::http_request::{
    PayloadChecksumKind, PercentEncodingMode, SignableBody, SignableRequest, SigningSettings,
    UriPathNormalizationMode, sign,
};
use aws_sigv4::sign::v4;
use aws_types::SdkConfig;
use aws_types::service_config::ServiceConfigKey;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::StatusCode;

/// The bytes S3 keeps as they are in an object's path: RFC 3986's unreserved characters
/// and `/`; every other byte of the key's UTF-8 is percent-encoded.
const KEY_PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b'/');

/// A bucket whose objects are read, with an AWS configuration's region, credentials and
/// endpoint.
pub(crate) struct Bucket {
    name: String,
    endpoint: Option<String>,
    region: Option<String>,
    credentials: Option<SharedCredentialsProvider>,
    http: reqwest::Client,
    attempt_timeout: Duration,
    call_timeout: Duration,
    attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
}

/// What went wrong in one attempt, and whether another may go better.
struct Failure {
    message: String,
    transient: bool,
}

impl Bucket {
    /// The bucket `name`, reached as `config` says: its region, its credentials (a session
    /// token among them), its S3 endpoint if one is configured.
    pub(crate) fn new(config: &SdkConfig, name: &str) -> Bucket {
        let timeouts = missive_aws::timeouts();
        let retries = missive_aws::retries();
        let mut http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none());
        if let Some(connect) = timeouts.connect_timeout() {
            http = http.connect_timeout(connect);
        }
        Bucket {
            name: name.to_string(),
            endpoint: endpoint(config),
            region: config.region().map(|r| r.to_string()),
            credentials: config.credentials_provider(),
            http: http
                .build()
                .expect("an HTTPS client over rustls and ring builds"),
            attempt_timeout: timeouts
                .operation_attempt_timeout()
                .unwrap_or(Duration::MAX),
            call_timeout: timeouts.operation_timeout().unwrap_or(Duration::MAX),
            attempts: retries.max_attempts(),
            initial_backoff: retries.initial_backoff(),
            max_backoff: retries.max_backoff(),
        }
    }

    /// The bucket's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The object `key`'s bytes. An answer of 5xx or 429, a connection that fails and an
    /// attempt unanswered in time are tried again, up to the configured attempts with
    /// exponential backoff and jitter, all within the call's timeout; the error names the
    /// HTTP status and S3's error code and message when S3 answered.
    pub(crate) async fn get(&self, key: &str) -> Result<Vec<u8>, String> {
        let region = self
            .region
            .as_deref()
            .ok_or("no AWS region is configured")?;
        let url = object_url(self.endpoint.as_deref(), region, &self.name, key);
        let call = async {
            let mut attempt = 1;
            loop {
                match self.attempt(&url, region).await {
                    Ok(body) => return Ok(body),
                    Err(failure) if failure.transient && attempt < self.attempts => {
                        tokio::time::sleep(self.backoff(attempt)).await;
                        attempt += 1;
                    }
                    Err(failure) if attempt > 1 => {
                        return Err(format!("{} (attempt {attempt})", failure.message));
                    }
                    Err(failure) => return Err(failure.message),
                }
            }
        };
        tokio::time::timeout(self.call_timeout, call)
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {:?}", self.call_timeout)))
    }

    /// One signed GET of `url`.
    async fn attempt(&self, url: &str, region: &str) -> Result<Vec<u8>, Failure> {
        let headers = self
            .signed_headers(url, region)
            .await
            .map_err(|message| Failure {
                message,
                transient: false,
            })?;
        let mut request = self.http.get(url).timeout(self.attempt_timeout);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let unsent = |error: reqwest::Error| Failure {
            transient: error.is_connect() || error.is_timeout() || error.is_request(),
            message: described(error),
        };
        let answer = request.send().await.map_err(unsent)?;
        let status = answer.status();
        let body = answer.bytes().await.map_err(|error| Failure {
            transient: true,
            message: described(error),
        })?;
        if status.is_success() {
            return Ok(body.to_vec());
        }
        Err(Failure {
            transient: status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS,
            message: refusal(status, &String::from_utf8_lossy(&body)),
        })
    }

    /// The headers that sign a GET of `url` in `region` with the current credentials:
    /// `x-amz-date`, `x-amz-content-sha256` (the empty body's hash), `x-amz-security-token`
    /// with a session's credentials, and `authorization`.
    async fn signed_headers(
        &self,
        url: &str,
        region: &str,
    ) -> Result<Vec<(String, String)>, String> {
        let provider = self
            .credentials
            .as_ref()
            .ok_or("no AWS credentials are configured")?;
        let credentials = provider
            .provide_credentials()
            .await
            .map_err(|e| format!("AWS credentials: {}", chain(&e)))?;
        let identity = credentials.into();
        // S3 signs the path as sent, each key once percent-encoded and never normalised.
        let mut settings = SigningSettings::default();
        settings.percent_encoding_mode = PercentEncodingMode::Single;
        settings.uri_path_normalization_mode = UriPathNormalizationMode::Disabled;
        settings.payload_checksum_kind = PayloadChecksumKind::XAmzSha256;
        let params = v4::SigningParams::builder()
            .identity(&identity)
            .region(region)
            .name("s3")
            .time(SystemTime::now())
            .settings(settings)
            .build()
            .map_err(|e| format!("signing: {e}"))?
            .into();
        let request = SignableRequest::new("GET", url, std::iter::empty(), SignableBody::empty())
            .map_err(|e| format!("signing: {}", chain(&e)))?;
        let (instructions, _) = sign(request, &params)
            .map_err(|e| format!("signing: {}", chain(&e)))?
            .into_parts();
        Ok(instructions
            .headers()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect())
    }

    /// How long to wait after failed attempt `attempt` (1 for the first): a random part of
    /// the initial backoff doubled for each attempt before, at most the maximum backoff.
    fn backoff(&self, attempt: u32) -> Duration {
        let ceiling = self
            .initial_backoff
            .saturating_mul(1 << (attempt - 1).min(16))
            .min(self.max_backoff);
        ceiling.mul_f64(fastrand::f64())
    }
}

/// The S3 endpoint `config` names, as S3's client reads it: `AWS_ENDPOINT_URL_S3`, else
/// `AWS_ENDPOINT_URL` (or the profile's `endpoint_url` of its `s3` services section, else its
/// own), unless `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` is set; else the configuration's
/// endpoint URL.
fn endpoint(config: &SdkConfig) -> Option<String> {
    let key = ServiceConfigKey::builder()
        .service_id("S3")
        .env("AWS_ENDPOINT_URL")
        .profile("endpoint_url")
        .build()
        .expect("every part of the key is given");
    config
        .service_config()
        .and_then(|loader| loader.load_config(key))
        .or_else(|| config.endpoint_url().map(String::from))
}

/// The address of object `key` of `bucket`: path-style under `endpoint` if given, else at
/// S3's endpoint of `region`, virtual-hosted unless the bucket's name has a dot.
fn object_url(endpoint: Option<&str>, region: &str, bucket: &str, key: &str) -> String {
    let key = utf8_percent_encode(key, KEY_PATH);
    match endpoint {
        Some(endpoint) => format!("{}/{bucket}/{key}", endpoint.trim_end_matches('/')),
        None if bucket.contains('.') => format!("https://s3.{region}.amazonaws.com/{bucket}/{key}"),
        None => format!("https://{bucket}.s3.{region}.amazonaws.com/{key}"),
    }
}

/// A refusal in words: the HTTP status, and the `Code` and `Message` of S3's XML error
/// `body` when it has them.
fn refusal(status: StatusCode, body: &str) -> String {
    match (element(body, "Code"), element(body, "Message")) {
        (Some(code), Some(message)) => format!("HTTP {status}, {code}: {message}"),
        (Some(code), None) => format!("HTTP {status}, {code}"),
        _ => format!("HTTP {status}"),
    }
}

/// The text of the first element `name` of `xml`, if it has one with text.
fn element<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = start + xml[start..].find(&format!("</{name}>"))?;
    Some(xml[start..end].trim()).filter(|text| !text.is_empty())
}

/// An HTTP client's error in words, with its causes, without the address (the caller
/// names the object).
fn described(error: reqwest::Error) -> String {
    chain(&error.without_url())
}

/// `error` and its causes, joined by `: `.
fn chain(error: &dyn Error) -> String {
    let mut words = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        words.push_str(": ");
        words.push_str(&cause.to_string());
        source = cause.source();
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_is_virtual_hosted_at_s3s_regional_endpoint() {
        assert_eq!(
            object_url(None, "eu-west-1", "missive-inbound", "inbound/abc123"),
            "https://missive-inbound.s3.eu-west-1.amazonaws.com/inbound/abc123"
        );
    }

    #[test]
    fn a_bucket_with_a_dot_is_path_style() {
        assert_eq!(
            object_url(None, "us-east-1", "mail.example.org", "inbound/abc"),
            "https://s3.us-east-1.amazonaws.com/mail.example.org/inbound/abc"
        );
    }

    #[test]
    fn a_configured_endpoint_is_path_style() {
        for endpoint in ["http://127.0.0.1:5000", "http://127.0.0.1:5000/"] {
            assert_eq!(
                object_url(Some(endpoint), "us-east-1", "inbox", "inbound/abc"),
                "http://127.0.0.1:5000/inbox/inbound/abc"
            );
        }
    }

    #[test]
    fn a_key_is_percent_encoded_but_for_unreserved_characters_and_slashes() {
        assert_eq!(
            object_url(
                Some("http://s3"),
                "us-east-1",
                "b",
                "a/b c+d=e&f?g#h%i~j_k-l.m//é"
            ),
            "http://s3/b/a/b%20c%2Bd%3De%26f%3Fg%23h%25i~j_k-l.m//%C3%A9"
        );
    }

    #[test]
    fn an_error_names_s3s_code_and_message_when_it_has_them() {
        let body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code>\
                    <Message>The specified key does not exist.</Message><Key>a</Key></Error>";
        assert_eq!(
            refusal(StatusCode::NOT_FOUND, body),
            "HTTP 404 Not Found, NoSuchKey: The specified key does not exist."
        );
        assert_eq!(
            refusal(
                StatusCode::FORBIDDEN,
                "<Error><Code>AccessDenied</Code></Error>"
            ),
            "HTTP 403 Forbidden, AccessDenied"
        );
        assert_eq!(
            refusal(StatusCode::BAD_GATEWAY, "<html>bad gateway</html>"),
            "HTTP 502 Bad Gateway"
        );
        assert_eq!(
            refusal(StatusCode::BAD_REQUEST, "<Error><Code> </Code></Error>"),
            "HTTP 400 Bad Request"
        );
    }

    #[test]
    fn backoff_doubles_per_attempt_up_to_its_maximum() {
        let bucket = Bucket::new(&SdkConfig::builder().build(), "b");
        assert!(bucket.backoff(1) <= bucket.initial_backoff);
        assert!(bucket.backoff(2) <= bucket.initial_backoff * 2);
        assert!((1..64).all(|attempt| bucket.backoff(attempt) <= bucket.max_backoff));
    }
}
