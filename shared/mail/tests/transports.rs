//! The SMTP and SES mailers against real peers on loopback: a small SMTP server speaking
//! the protocol, and an HTTP endpoint standing in for SES that records the request.

use aws_sdk_sesv2::config::{Credentials, Region};
use base64::Engine;
use missive_mail::{Mail, Mailer, Ses, Smtp};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

fn mail() -> Mail {
    Mail {
        to: "bob@example.org".into(),
        subject: "Your move".into(),
        text: "ann played 1. e4".into(),
        html: Some("<p>ann played 1. e4</p>".into()),
        inline: Vec::new(),
        attachments: Vec::new(),
        thread: None,
        headers: vec![(
            "List-Unsubscribe".into(),
            "<http://missive.test/unsubscribe/t>".into(),
        )],
    }
}

/// Serves one SMTP session on `listener`; sends back the envelope commands and the data.
async fn smtp_server(listener: TcpListener, done: oneshot::Sender<(Vec<String>, String)>) {
    let (socket, _) = listener.accept().await.unwrap();
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    let mut commands = Vec::new();
    let mut data = String::new();
    write.write_all(b"220 loopback ESMTP\r\n").await.unwrap();
    loop {
        let mut line = String::new();
        if lines.read_line(&mut line).await.unwrap() == 0 {
            break;
        }
        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-loopback\r\n250 8BITMIME\r\n",
            "DATA" => {
                write.write_all(b"354 go on\r\n").await.unwrap();
                loop {
                    let mut body_line = String::new();
                    lines.read_line(&mut body_line).await.unwrap();
                    if body_line == ".\r\n" {
                        break;
                    }
                    data.push_str(&body_line);
                }
                b"250 queued\r\n"
            }
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await.unwrap();
                break;
            }
            _ => {
                commands.push(line.trim_end().to_string());
                b"250 ok\r\n"
            }
        };
        write.write_all(reply).await.unwrap();
    }
    let _ = done.send((commands, data));
}

#[tokio::test]
async fn smtp_hands_the_rendered_mail_to_the_server() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (done, received) = oneshot::channel();
    tokio::spawn(smtp_server(listener, done));
    let smtp = Smtp::new(
        &format!("smtp://127.0.0.1:{port}"),
        "Missive <missive@example.org>",
    )
    .unwrap();
    smtp.send(&mail()).await.unwrap();
    let (commands, data) = received.await.unwrap();
    assert_eq!(
        commands,
        [
            "MAIL FROM:<missive@example.org>",
            "RCPT TO:<bob@example.org>"
        ]
    );
    assert!(data.starts_with("From: Missive <missive@example.org>\r\nTo: bob@example.org\r\n"));
    assert!(data.contains("List-Unsubscribe: <http://missive.test/unsubscribe/t>\r\n"));
    assert!(data.contains("multipart/alternative"));
}

#[tokio::test]
async fn smtp_refuses_a_bad_url_or_sender() {
    assert!(Smtp::new("ftp://x", "m@example.org").is_err());
    assert!(Smtp::new("smtp://127.0.0.1:25", "not an address").is_err());
}

/// Answers one HTTP request on `listener` as SES does; sends back its head and body.
async fn ses_endpoint(listener: TcpListener, done: oneshot::Sender<(String, String)>) {
    let (socket, _) = listener.accept().await.unwrap();
    let mut reader = BufReader::new(socket);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).await.unwrap();
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length: ")
                .map(str::to_string)
        })
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.unwrap();
    let answer = r#"{"MessageId":"loopback-1"}"#;
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{answer}",
        answer.len()
    );
    reader
        .get_mut()
        .write_all(response.as_bytes())
        .await
        .unwrap();
    let _ = done.send((head, String::from_utf8(body).unwrap()));
}

#[tokio::test]
async fn ses_sends_the_raw_mail_from_the_sender_identity() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let (done, received) = oneshot::channel();
    tokio::spawn(ses_endpoint(listener, done));
    let config = aws_sdk_sesv2::config::Builder::from(&missive_aws::config().await)
        .region(Region::new("eu-west-1"))
        .credentials_provider(Credentials::new("AKIDTEST", "secret", None, None, "test"))
        .endpoint_url(endpoint)
        .build();
    let ses = Ses::new(
        aws_sdk_sesv2::Client::from_conf(config),
        "missive@example.org",
    );
    ses.send(&mail()).await.unwrap();
    let (head, body) = received.await.unwrap();
    assert!(
        head.starts_with("POST /v2/email/outbound-emails HTTP/1.1"),
        "{head}"
    );
    assert!(
        head.to_ascii_lowercase()
            .contains("authorization: aws4-hmac-sha256")
    );
    let request: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(request["FromEmailAddress"], "missive@example.org");
    assert_eq!(
        request["Destination"]["ToAddresses"],
        serde_json::json!(["bob@example.org"])
    );
    let raw = base64::engine::general_purpose::STANDARD
        .decode(request["Content"]["Raw"]["Data"].as_str().unwrap())
        .unwrap();
    let raw = String::from_utf8(raw).unwrap();
    assert!(raw.contains("To: bob@example.org\r\n"));
    assert!(raw.contains("List-Unsubscribe: <http://missive.test/unsubscribe/t>\r\n"));
}
