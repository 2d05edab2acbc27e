//! Smoke runs of every scenario against the real server, started in-process on port 0 with a
//! temp data dir. They assert that each run completes with zero losses and zero duplicates,
//! never its speed: benchmarks live in `make bench`.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{SystemTime, UNIX_EPOCH};

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

/// Starts Parley on SQLite in a fresh data dir.
fn spawn_server() -> Server {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let target = spawn_node(data_dir.path(), String::new());
    Server { target, data_dir }
}

/// Starts a Parley node on `database_url` (empty: SQLite in `data_dir`) on its own actix system
/// in a background thread; answers its base URL.
fn spawn_node(data_dir: &Path, database_url: String) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut settings = Settings::load(&root).expect("config loads");
    settings.server.bind = "127.0.0.1:0".into();
    settings.server.data_dir = data_dir.to_path_buf();
    settings.server.web_dir = data_dir.join("no-web");
    settings.database.url = database_url;
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
    format!("http://127.0.0.1:{port}")
}

/// A fresh database on the Postgres named by `PARLEY_TEST_DATABASE_URL` (`make test` starts one
/// and drops its `parley_test_` databases when it ends).
async fn fresh_postgres_database() -> String {
    use sqlx::migrate::MigrateDatabase;
    let base = std::env::var("PARLEY_TEST_DATABASE_URL")
        .expect("PARLEY_TEST_DATABASE_URL must name a Postgres server (make test starts one)");
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let mut url = url::Url::parse(&base).expect("PARLEY_TEST_DATABASE_URL is a URL");
    url.set_path(&format!(
        "parley_test_cluster_{}_{nanos}",
        std::process::id()
    ));
    sqlx::Postgres::create_database(url.as_str())
        .await
        .expect("test database created");
    url.to_string()
}

/// Runs the scenario of `args` against a fresh SQLite server.
async fn run(args: &str) -> Report {
    let server = spawn_server();
    // `{data}` in the arguments stands for the server's data dir.
    let args = args.replace("{data}", &server.data_dir.path().display().to_string());
    run_on(&server.target, &args).await
}

/// Runs the scenario of `args` against `target`; asserts nothing was lost, duplicated or
/// refused.
async fn run_on(target: &str, args: &str) -> Report {
    let line = format!("parley-loadtest {args} --target {target} --quiet --drain 10");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_delivers_across_two_nodes_on_one_postgres() {
    let database = fresh_postgres_database().await;
    let data_dir = tempfile::tempdir().expect("temp dir");
    let first = spawn_node(data_dir.path(), database.clone());
    let second = spawn_node(data_dir.path(), database);
    let report = run_on(
        &first,
        &format!(
            "cluster --second-target {second} --rate 20 --duration 2 --customers 4 --agents 2"
        ),
    )
    .await;
    // Customer n posts to node n % 2 and one agent on the other node receives each message.
    assert_eq!(report.expected, 40);
    assert_eq!(report.delivered, 40);
    assert_eq!(report.dropped, Some(0));
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
