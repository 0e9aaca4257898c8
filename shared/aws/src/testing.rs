//! moto's server for tests, standing in for AWS services on a loopback port (the `testing`
//! feature): started with `MISSIVE_PYTHON`'s Python (`pip install "moto[server]"`, in
//! infra/python-requirements.txt).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// moto's server on a free loopback port, stopped when dropped.
pub struct Moto {
    child: Child,
    /// The server's address, `http://127.0.0.1:{port}`: every service's endpoint.
    pub endpoint: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Moto {
    /// Starts moto's server with `MISSIVE_PYTHON` (else `python3`); `None` (the test to be
    /// skipped, said on stderr) if that Python has no moto server, except under CI, where
    /// that panics. Panics if the server does not answer on three ports in turn.
    pub async fn start() -> Option<Moto> {
        let python = std::env::var("MISSIVE_PYTHON").unwrap_or_else(|_| "python3".into());
        let has_moto = Command::new(&python)
            .args(["-c", "import moto.server, flask, flask_cors"])
            .status()
            .is_ok_and(|status| status.success());
        if !has_moto {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI needs moto's server: pip install -r infra/python-requirements.txt"
            );
            eprintln!("skipped: no moto server in {python} (pip install \"moto[server]\")");
            return None;
        }
        for _ in 0..3 {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|listener| listener.local_addr())
                .expect("a free loopback port")
                .port();
            let child = Command::new(&python)
                .args([
                    "-m",
                    "moto.server",
                    "-H",
                    "127.0.0.1",
                    "-p",
                    &port.to_string(),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("moto's server starts");
            let moto = Moto {
                child,
                endpoint: format!("http://127.0.0.1:{port}"),
            };
            if moto.ready().await {
                return Some(moto);
            }
        }
        panic!("moto's server did not answer on three ports");
    }

    /// Whether the server answers within 30 s (it did not start if its process ended).
    async fn ready(&self) -> bool {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            if let Ok(answer) = reqwest::get(format!("{}/moto-api/", self.endpoint)).await
                && answer.status().is_success()
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        false
    }

    /// A call of a Query-protocol API (IAM, SES, STS) with `params` (its `Action` among
    /// them): the answer's XML. Its signature is a stand-in, which moto does not check
    /// until [`Moto::check_signatures`]; it names `service`, the region and the key id.
    /// Panics unless the call succeeds.
    pub async fn query(&self, service: &str, params: &[(&str, &str)]) -> String {
        let answer = reqwest::Client::new()
            .post(&self.endpoint)
            .header(
                "authorization",
                format!(
                    "AWS4-HMAC-SHA256 Credential=missivetest/20260101/us-east-1/{service}/aws4_request"
                ),
            )
            .form(params)
            .send()
            .await
            .expect("moto answers");
        let status = answer.status();
        let text = answer.text().await.expect("moto's answer is read");
        assert!(status.is_success(), "{params:?}: {status} {text}");
        text
    }

    /// From now on every request must be signed (AWS Signature V4) with an access key of
    /// moto's IAM and be allowed by the policies of its user, as AWS checks them.
    pub async fn check_signatures(&self) {
        let answer = reqwest::Client::new()
            .post(format!("{}/moto-api/reset-auth", self.endpoint))
            .body("0")
            .send()
            .await
            .expect("moto answers");
        assert!(answer.status().is_success(), "{answer:?}");
    }
}
