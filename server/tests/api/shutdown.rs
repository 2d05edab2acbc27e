//! A server stopped with SIGTERM, as a service manager stops it, ends cleanly: exit status 0
//! and nothing warned, after a burst of webhooks and reads that kept every HTTP worker's
//! database connections busy at once. Runs the real `parley` binary as a child process.

use std::time::Duration;

use crate::both_backends;
use crate::crash::{start, unstarted_app};
use crate::live::*;

both_backends!(
    sigterm_after_a_burst_of_requests_stops_the_server_without_a_warning,
    |backend| async move {
        let mut app = unstarted_app(backend).await;
        let mut server = start(&mut app, "", &[]).await;
        let biz = app.business("stopping").await;
        let customers: Vec<String> = (0..40).map(|i| format!("4930555{i:05}")).collect();
        let (app, biz) = (&app, &biz);
        let webhooks = customers.iter().map(|customer| async move {
            let message = text(customer, &format!("wamid.{customer}-stop"), "hello");
            let body = inbound(&biz.phone_number_id, customer, "C", vec![message]);
            app.webhook(&body, &biz.app_secret).await.0
        });
        let reads = (0..40).map(|_| async {
            let (status, _) = app.get("/api/users", &biz.session.access).await;
            status
        });
        let (answered, read) = futures_util::join!(
            futures_util::future::join_all(webhooks),
            futures_util::future::join_all(reads)
        );
        assert!(answered.iter().all(|status| *status == 200), "{answered:?}");
        assert!(read.iter().all(|status| *status == 200), "{read:?}");
        // The background tasks (outbox polls, search upkeep) run meanwhile, on the connections
        // the burst left in the pool.
        tokio::time::sleep(Duration::from_millis(300)).await;

        let pid = server.0.id().to_string();
        let signalled = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(signalled.success());
        let exit = tokio::task::spawn_blocking(move || {
            let status = server.0.wait().expect("reaped");
            (status, server.log())
        });
        let (status, log) = tokio::time::timeout(Duration::from_secs(30), exit)
            .await
            .expect("parley stops within 30 s of SIGTERM")
            .expect("join");
        assert!(status.success(), "exit status {status}");
        let warned: Vec<_> = log
            .iter()
            .filter(|line| line.contains("WARN") || line.contains("ERROR"))
            .collect();
        assert!(warned.is_empty(), "{warned:#?}");
    }
);
