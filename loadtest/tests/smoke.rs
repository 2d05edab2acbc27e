//! Smoke runs of every scenario against the real server, started in-process on port 0 with a
//! temp data dir. They assert that each run completes with zero losses and zero duplicates,
//! never its speed: benchmarks live in `make bench`.

use std::path::PathBuf;
use std::sync::mpsc;

use clap::Parser;
use parley_loadtest::cli::Cli;
use parley_loadtest::report::Report;
use parley_server::app::Application;
use parley_server::config::Settings;

/// A running server; the data dir goes with it.
struct Server {
    target: String,
    data_dir: tempfile::TempDir,
}

/// Starts Parley on its own actix system in a background thread.
fn spawn_server() -> Server {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut settings = Settings::load(&root).expect("config loads");
    let data_dir = tempfile::tempdir().expect("temp dir");
    settings.server.bind = "127.0.0.1:0".into();
    settings.server.data_dir = data_dir.path().to_path_buf();
    settings.server.web_dir = data_dir.path().join("no-web");
    settings.database.url = String::new();
    // The bulk smoke run sends at the outbox's pace; the sandbox's limit must stay above it.
    settings.outbox.rate_per_second = 400.0;
    settings.sandbox.rate_per_second = 4_000.0;
    let (port_tx, port_rx) = mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let app = Application::build(settings).await.expect("app builds");
            port_tx.send(app.port()).expect("test waits for the port");
            app.run_until_stopped().await
        })
    });
    let port = port_rx.recv().expect("server started");
    let target = format!("http://127.0.0.1:{port}");
    Server { target, data_dir }
}

async fn run(args: &str) -> Report {
    let server = spawn_server();
    // `{data}` in the arguments stands for the server's data dir.
    let args = args.replace("{data}", &server.data_dir.path().display().to_string());
    let line = format!(
        "parley-loadtest {args} --target {} --quiet --drain 10",
        server.target
    );
    let cli = Cli::try_parse_from(line.split_whitespace()).expect("arguments parse");
    let report = parley_loadtest::run(&cli)
        .await
        .expect("scenario completes");
    assert_eq!(report.lost, 0, "lost deliveries: {}", report.table());
    assert_eq!(report.duplicates, 0, "duplicates: {}", report.table());
    assert_eq!(report.errors, 0, "errors: {}", report.table());
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_holds_every_session() {
    let report = run("idle --sessions 20 --rate 200 --duration 1 --agents 1").await;
    assert_eq!(report.connected, Some(20));
    assert_eq!(report.dropped, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inbox_delivers_every_message_to_every_agent_once() {
    let report = run("inbox --rate 20 --duration 2 --customers 4 --agents 2").await;
    assert_eq!(report.expected, 80);
    assert_eq!(report.delivered, 80);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inbox_accepts_batched_webhooks() {
    let report = run("inbox --batch 5 --rate 20 --duration 1 --customers 3 --agents 1").await;
    assert_eq!(report.delivered, 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fanout_reaches_every_follower_at_each_step() {
    let report = run(
        "fanout --sessions 20 --rate 10 --step-secs 1 --step-factor 2 --max-rate 20 \
         --p99-bound-ms 60000 --duration 10 --agents 2",
    )
    .await;
    assert_eq!(report.steps.len(), 2);
    assert_eq!(report.delivered, report.expected);
    assert_eq!(report.expected, (10 + 20) * 20);
    assert!(report.mean_frame_bytes.is_some_and(|b| b > 100));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_gets_delivered_and_read_receipts() {
    let report = run("send --rate 5 --duration 2 --customers 2 --agents 1").await;
    assert_eq!(report.expected, 10);
    assert_eq!(report.delivered, 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bulk_sends_every_recipient_exactly_once() {
    let report =
        run("bulk --recipients 200 --rate 400 --sandbox-log {data}/sandbox-sent.jsonl").await;
    assert_eq!(report.expected, 200);
    assert_eq!(report.delivered, 200);
    assert_eq!(report.job_finished, Some(true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn big_inbox_seeds_every_message_and_answers_every_read() {
    let report = run(
        "big-inbox --conversations 200 --messages 2000 --deep 200 --batch 100 --repeats 3 \
         --max-inflight 4",
    )
    .await;
    assert_eq!(report.delivered, 2000);
    let read = |name: &str| {
        let q = report.queries.iter().find(|q| q.name == name);
        q.map_or(0, |q| q.results)
    };
    assert_eq!(read("list first page"), 20);
    assert_eq!(read("open deep conversation"), 30);
    assert_eq!(read("search common word"), 20);
    assert!(read("list filtered") > 0, "{}", report.table());
}

#[test]
fn a_non_loopback_target_is_refused() {
    for target in [
        "http://10.0.0.1:8080",
        "http://example.com",
        "http://192.168.1.2",
    ] {
        let cli = Cli::try_parse_from(["parley-loadtest", "idle", "--target", target])
            .expect("arguments parse");
        let err = cli.common.validate(&cli.scenario).expect_err("refused");
        assert!(err.to_string().contains("loopback"), "{err}");
    }
}

#[test]
fn runs_are_bounded() {
    for args in [
        "idle --sessions 100000",
        "inbox --rate 1000000",
        "inbox --duration 100000",
        "fanout --step-factor 1",
        "fanout --frame-bytes 600",
        "fanout --peer nchan --frame-bytes 100000",
        "bulk --recipients 0 --sandbox-log x",
        "bulk --recipients 100000 --rate 10 --sandbox-log x",
        "big-inbox --deep 2000000",
        "big-inbox --batch 5000",
    ] {
        let cli = Cli::try_parse_from(format!("parley-loadtest {args}").split_whitespace())
            .expect("arguments parse");
        assert!(cli.common.validate(&cli.scenario).is_err(), "{args}");
    }
}
