//! The AWS clients' HTTPS, end to end on loopback: DynamoDB Local behind a TLS endpoint
//! whose certificate a test authority signed. With that authority in `SSL_CERT_FILE` (the
//! platform's roots, as the functions read them) a DynamoDB call through
//! [`missive_aws::config`] succeeds; an endpoint whose certificate another authority
//! signed is refused.

use std::sync::Arc;

use rcgen::{CertificateParams, CertifiedIssuer, KeyPair};
use rustls::ServerConfig;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

/// A certificate authority of this test.
fn authority(name: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("authority parameters");
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    CertifiedIssuer::self_signed(params, KeyPair::generate().expect("authority key"))
        .expect("authority certificate")
}

/// A TLS server configuration for `localhost`, its certificate signed by `issuer`.
fn server_config(issuer: &CertifiedIssuer<'static, KeyPair>) -> Arc<ServerConfig> {
    let key = KeyPair::generate().expect("server key");
    let params = CertificateParams::new(vec!["localhost".to_string()]).expect("server name");
    let certificate = params.signed_by(&key, issuer).expect("server certificate");
    let chain = vec![CertificateDer::from(certificate.der().to_vec())];
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let config =
        ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("protocol versions")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("server configuration");
    Arc::new(config)
}

/// Serves TLS on a loopback port with `config`, passing every connection's bytes to and
/// from `upstream` (host:port); the `https://localhost:PORT` address.
async fn tls_front(config: Arc<ServerConfig>, upstream: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("address").port();
    let acceptor = TlsAcceptor::from(config);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let Ok(mut client) = acceptor.accept(client).await else {
                    return;
                };
                if let Ok(mut server) = TcpStream::connect(&upstream).await {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                }
            });
        }
    });
    format!("https://localhost:{port}")
}

/// DynamoDB Local's host:port, from the endpoint the test script exports.
fn dynamodb_local() -> String {
    let endpoint = std::env::var("AWS_ENDPOINT_URL_DYNAMODB").expect(
        "these tests need DynamoDB Local: run them with infra/test.sh \
         (or set AWS_ENDPOINT_URL_DYNAMODB to `infra/dynamodb-local.sh start`'s endpoint)",
    );
    endpoint
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// Lists the tables of the DynamoDB endpoint `url` through the shared configuration.
async fn list_tables(url: &str) -> Result<(), String> {
    let shared = missive_aws::config().await;
    let config = aws_sdk_dynamodb::config::Builder::from(&shared)
        .endpoint_url(url)
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
        .list_tables()
        .send()
        .await
        .map(|_| ())
        .map_err(|e| format!("{}", aws_sdk_dynamodb::error::DisplayErrorContext(e)))
}

#[tokio::test]
async fn calls_go_over_tls_to_trusted_endpoints_only() {
    let trusted = authority("Missive test authority");
    let stranger = authority("Some other authority");
    let roots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("missive-aws-roots.pem");
    std::fs::write(&roots, trusted.pem()).expect("write the trusted roots");
    // SAFETY: this binary's only test sets the variable before anything reads the
    // environment on another thread (the runtime is current-thread, and the configuration
    // and its HTTPS client are built after this).
    unsafe { std::env::set_var("SSL_CERT_FILE", &roots) };

    let upstream = dynamodb_local();
    let good = tls_front(server_config(&trusted), upstream.clone()).await;
    list_tables(&good)
        .await
        .expect("a call over TLS to an endpoint the roots trust succeeds");

    let bad = tls_front(server_config(&stranger), upstream).await;
    let refused = list_tables(&bad)
        .await
        .expect_err("an endpoint whose certificate no trusted root signed is refused");
    assert!(
        refused.to_lowercase().contains("certificate"),
        "the refusal names the certificate: {refused}"
    );
}
