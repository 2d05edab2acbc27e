//! Several nodes sharing one Postgres: events committed through one node reach the sessions of
//! every node, each node's in seq order, even one whose notice never came or could not carry them
//! (docs/decisions/0003-events-across-nodes.md); failed sign-ins count on every node, a bulk
//! job is sent by one node only, and a node starts while the others write.

use std::time::Duration;

use parley_server::config::Settings;

use crate::helpers::{Backend, PASSWORD, TestApp, spawn_with, test_settings};
use crate::live::{Business, WsClient, inbound, store_of, text};

/// Settings for nodes on one fresh Postgres database, signing tokens with the same key.
async fn cluster_settings() -> (Settings, tempfile::TempDir) {
    let (mut settings, data_dir) = test_settings(Backend::Postgres).await;
    settings.auth.jwt_secret = "0123456789abcdef".repeat(8);
    settings.auth.max_failed_logins_per_account = 4;
    settings.auth.max_failed_logins_per_address = 100;
    (settings, data_dir)
}

/// Another node on the same database, with a data dir (and so a sandbox) of its own.
async fn another_node(settings: &Settings) -> TestApp {
    let mut other = settings.clone();
    let other_dir = tempfile::tempdir().expect("temp dir");
    other.server.data_dir = other_dir.path().to_path_buf();
    other.server.web_dir = other_dir.path().join("no-web");
    spawn_with(other, other_dir).await
}

pub async fn two_nodes() -> (TestApp, TestApp) {
    let (settings, data_dir) = cluster_settings().await;
    let b = another_node(&settings).await;
    (spawn_with(settings, data_dir).await, b)
}

/// Two nodes, a business registered through node A, and its owner following the business's
/// notifications through node B.
async fn followed_on_b(username: &str) -> (TestApp, Business, WsClient) {
    let (a, b) = two_nodes().await;
    let business = a.business(username).await;
    let mut client = WsClient::connect(&b, &business.session.access).await;
    client.subscribe("notifications/all").await;
    (a, business, client)
}

#[actix_web::test]
async fn an_event_whose_notice_never_came_is_read_from_the_log_before_the_next() {
    let (a, business, mut client) = followed_on_b("cluster_gap").await;
    // Committed as by a node that stopped between its commit and its notice: logged, never
    // announced to the other nodes.
    let (store, business_id) = store_of(&a, &business).await;
    store
        .add_contact(&business_id, "15551230009", "Unannounced")
        .await
        .expect("contact added");
    // The next event of the business comes through node A as usual.
    let customer = "15551230002";
    let message = text(customer, "wamid.cluster.gap", "after the gap");
    let body = inbound(&business.phone_number_id, customer, "Bo", vec![message]);
    let (status, answer) = a.webhook(&body, &business.app_secret).await;
    assert_eq!(status, 200, "{answer}");

    // Node B's session gets the unannounced event first, then the message's, in seq order.
    let first = client.next_frame().await;
    assert_eq!(first["event"], "new_contact", "{first}");
    assert_eq!(first["data"]["phone_number"], "15551230009", "{first}");
    let mut seqs = vec![first["seq"].as_i64().expect("a logged event")];
    loop {
        let frame = client.next_frame().await;
        seqs.push(frame["seq"].as_i64().expect("a logged event"));
        if frame["event"] == "notification" {
            assert_eq!(frame["data"]["preview"], "after the gap");
            break;
        }
    }
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
}

#[actix_web::test]
async fn after_its_listener_reconnects_a_node_reads_what_it_may_have_missed() {
    let (a, business, mut client) = followed_on_b("cluster_reconnect").await;
    // A first message, so that node B routes events of this business.
    let customer = "15551230003";
    let message = text(customer, "wamid.cluster.before", "before");
    let body = inbound(&business.phone_number_id, customer, "Cy", vec![message]);
    let (status, answer) = a.webhook(&body, &business.app_secret).await;
    assert_eq!(status, 200, "{answer}");
    loop {
        let frame = client.next_frame().await;
        if frame["event"] == "notification" {
            break;
        }
    }

    // The nodes' listening connections drop; an event committed meanwhile is announced to no
    // one (committed here without a notice, so that only the catch-up can bring it).
    let url = a.settings.database_url();
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .expect("admin connection");
    let dropped: Vec<(bool,)> = sqlx::query_as(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
    )
    .fetch_all(&mut admin)
    .await
    .expect("listeners terminated");
    assert_eq!(dropped.len(), 2, "one listener per node");
    let (store, business_id) = store_of(&a, &business).await;
    store
        .add_contact(&business_id, "15551230008", "Missed")
        .await
        .expect("contact added");

    let frame = client.next_frame().await;
    assert_eq!(frame["event"], "new_contact", "{frame}");
    assert_eq!(frame["data"]["phone_number"], "15551230008", "{frame}");
}

#[actix_web::test]
async fn a_message_too_large_for_a_notice_reaches_the_other_node_from_the_log_in_order() {
    let (a, business, mut client) = followed_on_b("cluster_large").await;
    // Its events (about 8,000 bytes of text each) do not fit a notice, those of the message
    // after it do: the first are read from the log, the second travel in the notice.
    let customer = "15551230004";
    let long = "é".repeat(4000);
    let messages = vec![
        text(customer, "wamid.cluster.large", &long),
        text(customer, "wamid.cluster.small", "and a short one"),
    ];
    let body = inbound(&business.phone_number_id, customer, "Di", messages);
    let (status, answer) = a.webhook(&body, &business.app_secret).await;
    assert_eq!(status, 200, "{answer}");

    let (mut previews, mut seqs) = (Vec::new(), Vec::new());
    while previews.len() < 2 {
        let frame = client.next_frame().await;
        seqs.push(frame["seq"].as_i64().expect("a logged event"));
        if frame["event"] == "notification" && frame["data"]["phone_number"] == customer {
            previews.push(frame["data"]["preview"].clone());
        }
    }
    let expected: Vec<serde_json::Value> = vec![long.into(), "and a short one".into()];
    assert_eq!(previews, expected);
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
}

#[actix_web::test]
async fn events_committed_through_either_node_reach_sessions_on_both_in_order() {
    let (a, b) = two_nodes().await;
    let business = a.business("cluster_owner").await;
    let customer = "15551230001";
    let channel = format!("{}_{customer}", business.phone_number_id);
    let mut clients = Vec::new();
    for node in [&a, &b] {
        let mut client = WsClient::connect(node, &business.session.access).await;
        client.subscribe("notifications/all").await;
        client.subscribe(&channel).await;
        clients.push(client);
    }

    // The customer writes six times, through the two nodes' webhooks in turn.
    for i in 0..6 {
        let node = if i % 2 == 0 { &a } else { &b };
        let message = text(
            customer,
            &format!("wamid.cluster.{i}"),
            &format!("hello {i}"),
        );
        let body = inbound(&business.phone_number_id, customer, "Ana", vec![message]);
        let (status, answer) = node.webhook(&body, &business.app_secret).await;
        assert_eq!(status, 200, "{answer}");
    }

    let expected: Vec<serde_json::Value> = (0..6).map(|i| format!("hello {i}").into()).collect();
    for (node, client) in ["a", "b"].into_iter().zip(&mut clients) {
        let (mut notified, mut shown, mut seqs) = (Vec::new(), Vec::new(), Vec::new());
        while notified.len() < 6 || shown.len() < 6 {
            let frame = client.next_frame().await;
            seqs.push(frame["seq"].as_i64().expect("a logged event"));
            let data = &frame["data"];
            match frame["event"].as_str() {
                Some("notification") => notified.push(data["preview"].clone()),
                Some("new_message") => shown.push(data["message"]["content"]["text"].clone()),
                _ => {}
            }
        }
        assert_eq!(notified, expected, "notifications on node {node}");
        assert_eq!(shown, expected, "messages on node {node}");
        assert!(
            seqs.windows(2).all(|w| w[0] < w[1]),
            "seqs on node {node}: {seqs:?}"
        );
    }
}

#[actix_web::test]
async fn failed_sign_ins_through_either_node_lock_the_account_on_both() {
    let (a, b) = two_nodes().await;
    a.register("cluster_locked").await;
    for node in [&a, &b, &a, &b] {
        assert_eq!(node.login("cluster_locked", "wrong password").await.0, 401);
    }
    // The fourth failure, on node b, locked the account for both nodes, right password or not.
    for node in [&a, &b] {
        let (status, body) = node.login("cluster_locked", PASSWORD).await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["code"], "too_many_requests");
    }
}

#[actix_web::test]
async fn a_node_started_while_another_sends_a_bulk_job_leaves_the_job_to_it() {
    let (mut settings, data_dir) = cluster_settings().await;
    // 20 recipients at 10/s: the job runs for about two seconds.
    settings.outbox.rate_per_second = 10.0;
    let a = spawn_with(settings.clone(), data_dir).await;
    let biz = a.business("cluster_bulk").await;
    a.approved_template(&biz, "order_update").await;
    let recipients: Vec<String> = (0..20).map(|i| format!("3362{i:07}")).collect();
    let job = a.start_bulk_job(&biz, &recipients).await;

    // Node b starts mid-job and looks for jobs to take over at once. Its own sandbox does not
    // know the template, so any recipient it sent would end as an error.
    let _b = another_node(&settings).await;
    let report = a.finished_job(&biz, &job, Duration::from_secs(30)).await;
    assert_eq!(
        (report["success"].as_i64(), report["errors"].as_i64()),
        (Some(20), Some(0)),
        "{report}"
    );
    let sent =
        std::fs::read_to_string(a.data_dir.path().join("sandbox-sent.jsonl")).expect("a's log");
    assert_eq!(
        sent.lines().count(),
        20,
        "each recipient sent once, through node a"
    );
}

#[actix_web::test]
async fn a_node_starts_while_another_holds_a_write_on_the_search_documents() {
    use sqlx::Connection;

    let (settings, data_dir) = cluster_settings().await;
    let _a = spawn_with(settings.clone(), data_dir).await;
    // What every message's commit holds on the search documents while its batch is written.
    let mut writer = sqlx::PgConnection::connect(&settings.database.url)
        .await
        .expect("a connection of its own");
    let mut batch = writer.begin().await.expect("begin");
    sqlx::query("LOCK TABLE search_documents IN ROW EXCLUSIVE MODE")
        .execute(&mut *batch)
        .await
        .expect("the writers' lock");

    // A node that took a lock against writes on starting would wait for the batch forever.
    let b = tokio::time::timeout(Duration::from_secs(60), another_node(&settings))
        .await
        .expect("node b started while a batch was being written");
    batch.rollback().await.expect("rollback");
    // And it works: a business registers through it.
    b.business("cluster_start").await;
}
