//! A server killed with SIGKILL while messages wait in its outbox delivers each of them exactly
//! once after it starts again. Runs the real `parley` binary as a child process.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

/// A running `parley serve`, killed when dropped, and the thread that reads its log.
pub struct Server(pub Child, Option<std::thread::JoinHandle<Vec<String>>>);

impl Server {
    /// Every line it logged but its start-up line; waits for the log to end, so call it once
    /// the process has exited.
    pub fn log(&mut self) -> Vec<String> {
        self.1
            .take()
            .map(|reader| reader.join().expect("the log's reader"))
            .unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A test app without a server yet: the test starts the binary itself with `start`.
pub async fn unstarted_app(backend: Backend) -> TestApp {
    let (settings, data_dir) = test_settings(backend).await;
    TestApp {
        address: String::new(),
        client: reqwest::Client::new(),
        settings,
        data_dir,
    }
}

/// Starts the binary on a port it picks itself (so no other test can take it first), with the
/// test's database and data dir, and points `app.address` at it.
pub async fn start(
    app: &mut TestApp,
    provider_base_url: &str,
    extra_env: &[(&str, &str)],
) -> Server {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut child = Command::new(env!("CARGO_BIN_EXE_parley"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(app.data_dir.path())
        .current_dir(&root)
        .env("DATABASE_URL", app.settings.database_url())
        .env("PARLEY_SERVER__WEB_DIR", app.data_dir.path().join("no-web"))
        .env("PARLEY_PROVIDER__BASE_URL", provider_base_url)
        .env("PARLEY_OUTBOX__FIRST_RETRY_MS", "200")
        .env("PARLEY_OUTBOX__MAX_RETRY_MS", "500")
        .env("PARLEY_OUTBOX__MAX_ATTEMPTS", "1000")
        .env("PARLEY_OUTBOX__POLL_MS", "100")
        .env("PARLEY_SANDBOX__SIMULATED_CUSTOMERS", "0")
        .env("PARLEY_SANDBOX__REPLY_PROBABILITY", "0")
        .env("PARLEY_SANDBOX__TEMPLATE_REVIEW_MS", "200")
        .envs(extra_env.iter().copied())
        .env("RUST_LOG", "warn,parley_server::app=info")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("parley starts");
    // The start-up line names the URL; the rest of the log is kept, so the pipe never fills.
    // The log is not a terminal here, so it must carry no colour codes.
    let log = child.stdout.take().expect("stdout");
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        let mut kept = Vec::new();
        let mut coloured = false;
        for line in std::io::BufReader::new(log).lines().map_while(Result::ok) {
            coloured |= line.contains('\u{1b}');
            let Some(port) = line.strip_prefix("Parley is listening on http://127.0.0.1:") else {
                kept.push(line);
                continue;
            };
            let _ = port_tx.send(if coloured {
                Err(format!(
                    "colour codes in a log that is not a terminal: {line:?}"
                ))
            } else {
                port.parse::<u16>().map_err(|e| format!("{line}: {e}"))
            });
        }
        kept
    });
    let server = Server(child, Some(reader));
    let port = tokio::task::spawn_blocking(move || port_rx.recv_timeout(Duration::from_secs(60)))
        .await
        .expect("join")
        .expect("parley did not say where it listens")
        .expect("the start-up line");
    app.address = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let probe = app.client.head(app.url("/api/health")).send().await;
        if probe.is_ok_and(|r| r.status().is_success()) {
            return server;
        }
        assert!(
            Instant::now() < deadline,
            "parley did not come up on {port}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Opens the customer's 24-hour window: they write in now.
pub async fn customer_writes_now(app: &TestApp, biz: &Business, customer: &str) {
    let mut message = text(customer, &format!("wamid.{customer}-in"), "hello");
    message["timestamp"] = serde_json::json!(format!(
        "{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_secs()
    ));
    let (status, _) = app
        .webhook(
            &inbound(&biz.phone_number_id, customer, "C", vec![message]),
            &biz.app_secret,
        )
        .await;
    assert_eq!(status, 200);
}

/// Our messages to the customer, as the conversation's history shows them.
pub async fn outgoing_messages(
    app: &TestApp,
    biz: &Business,
    customer: &str,
) -> Vec<serde_json::Value> {
    let (_, history) = app
        .get(
            &format!("/api/conversation/{customer}?limit=100"),
            &biz.session.access,
        )
        .await;
    history["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["direction"] == "outgoing")
        .cloned()
        .collect()
}

both_backends!(
    pending_sends_survive_sigkill_and_are_delivered_once,
    |backend| async move {
        let mut app = unstarted_app(backend).await;
        // First life: the provider is unreachable, so every send waits in the outbox.
        let mut server = start(&mut app, "http://127.0.0.1:9", &[]).await;
        let biz = app.business("crashy").await;
        let customer = "4930123456789";
        customer_writes_now(&app, &biz, customer).await;
        for i in 0..3 {
            let (status, body) = app
                .send_text(
                    &biz.session.access,
                    customer,
                    &format!("crash-{i}"),
                    &format!("pending {i}"),
                )
                .await;
            assert_eq!(status, 202, "{body}");
            assert_eq!(body["status"], "queued");
        }
        server.0.kill().expect("SIGKILL");
        server.0.wait().expect("reaped");
        drop(server);

        // Second life, with the sandbox as the provider. An entry the kill caught in an attempt
        // stays leased for 20 s (OUTBOX_LEASE_MS) before it is retried.
        let _server = start(&mut app, "", &[]).await;
        let deadline = Instant::now() + Duration::from_secs(45);
        let delivered = loop {
            let sent = app.sandbox_sent(&biz).await;
            if sent.len() >= 3 || Instant::now() > deadline {
                break sent;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        // Give a duplicate the chance to show up before counting.
        tokio::time::sleep(Duration::from_millis(800)).await;
        let delivered = if delivered.len() >= 3 {
            app.sandbox_sent(&biz).await
        } else {
            delivered
        };
        let mut texts: Vec<String> = delivered
            .iter()
            .map(|m| {
                m["body"]["text"]["body"]
                    .as_str()
                    .expect("text")
                    .to_string()
            })
            .collect();
        texts.sort();
        assert_eq!(texts, vec!["pending 0", "pending 1", "pending 2"]);
        let outgoing = outgoing_messages(&app, &biz, customer).await;
        assert_eq!(outgoing.len(), 3);
        assert!(
            outgoing.iter().all(|m| m["message_id"]
                .as_str()
                .is_some_and(|id| id.starts_with("wamid."))),
            "{outgoing:?}"
        );
    }
);

both_backends!(
    a_bulk_job_killed_midway_resumes_without_sending_twice,
    |backend| async move {
        let mut app = unstarted_app(backend).await;
        // Paced at 20 messages/s, so the kill lands in the middle of the job.
        let paced = [("PARLEY_OUTBOX__RATE_PER_SECOND", "20")];
        let mut server = start(&mut app, "", &paced).await;
        let biz = app.business("bulkcrash").await;
        app.approved_template(&biz, "order_update").await;
        let recipients: Vec<String> = (0..60).map(|i| format!("3361{:07}", i)).collect();
        let job = app.start_bulk_job(&biz, &recipients).await;
        let path = format!("/api/send-template/jobs/{job}");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let (_, report) = app.get(&path, &biz.session.access).await;
            if report["done"].as_i64().unwrap_or_default() >= 10 {
                assert_eq!(
                    report["finished"], false,
                    "killed too late to prove anything"
                );
                break;
            }
            assert!(Instant::now() < deadline, "the job did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        server.0.kill().expect("SIGKILL");
        server.0.wait().expect("reaped");
        drop(server);

        let _server = start(&mut app, "", &paced).await;
        let report = app.finished_job(&biz, &job, Duration::from_secs(90)).await;
        assert_eq!(report["success"], 60, "{report}");
        // What the provider received over both lives (the sandbox keeps its log on disk).
        let sent = app.sandbox_sent(&biz).await;
        let mut per_recipient = std::collections::HashMap::new();
        for message in sent.iter().filter(|m| m["body"]["type"] == "template") {
            *per_recipient
                .entry(message["body"]["to"].as_str().expect("to").to_string())
                .or_insert(0) += 1;
        }
        assert_eq!(per_recipient.len(), 60);
        // Exactly once, except the one message the kill may have caught between the provider
        // accepting it and its answer being journaled (the Cloud API has no idempotency key; see
        // docs/OPERATIONS.md).
        let repeats: usize = per_recipient.values().map(|n| n - 1).sum();
        assert!(
            repeats <= 1,
            "{repeats} recipients got the template twice: {per_recipient:?}"
        );
    }
);
