//! `/metrics`: requests by route pattern and status with latency buckets, webhook messages
//! ingested, and who may read it. The recorder is the process's, shared by every test server
//! running beside this one, so counts are compared as lower bounds of their growth.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "16505550142";

/// The value of the sample `name{labels…}` holding every pair of `labels`, if any.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find(|line| {
            line.strip_prefix(name).is_some_and(|rest| {
                (rest.starts_with('{') || rest.starts_with(' '))
                    && labels
                        .iter()
                        .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")))
            })
        })
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
}

async fn scrape(app: &TestApp, forwarded_for: Option<&str>) -> (u16, String) {
    let mut request = app.client.get(app.url("/metrics"));
    if let Some(address) = forwarded_for {
        request = request.header("X-Forwarded-For", address);
    }
    let response = request.send().await.expect("metrics answered");
    let status = response.status().as_u16();
    (status, response.text().await.expect("metrics read"))
}

both_backends!(
    metrics_count_requests_by_route_pattern_and_the_messages_a_webhook_brought,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("metered").await;
        let (status, before) = scrape(&app, None).await;
        assert_eq!(status, 200, "{before}");
        let ingested =
            |text: &str| sample(text, "parley_webhook_messages_ingested_total", &[]).unwrap_or(0.0);

        let messages = (0..3)
            .map(|i| text(CUSTOMER, &format!("wamid.metered.{i}"), "hello"))
            .collect();
        let delivery = inbound(&biz.phone_number_id, CUSTOMER, "Metered", messages);
        let (status, body) = app.webhook(&delivery, &biz.app_secret).await;
        assert_eq!((status, body), (200, json!({"status": "success"})));
        let (status, _) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        assert_eq!(status, 200);
        let (status, _) = app
            .get("/api/no-such-area/98765", &biz.session.access)
            .await;
        assert_eq!(status, 404);

        let (status, after) = scrape(&app, None).await;
        assert_eq!(status, 200);
        let webhook = [("method", "POST"), ("route", "/webhook"), ("status", "200")];
        assert!(sample(&after, "parley_http_requests_total", &webhook).is_some_and(|n| n >= 1.0));
        let history = [
            ("method", "GET"),
            ("route", "/api/conversation/{phone}"),
            ("status", "200"),
        ];
        assert!(sample(&after, "parley_http_requests_total", &history).is_some_and(|n| n >= 1.0));
        for raw in [CUSTOMER, "98765"] {
            assert!(!after.contains(raw), "a raw path became a label: {raw}");
        }
        let buckets = [
            ("method", "GET"),
            ("route", "/api/conversation/{phone}"),
            ("le", "+Inf"),
        ];
        let bucket = "parley_http_request_duration_seconds_bucket";
        assert!(sample(&after, bucket, &buckets).is_some_and(|n| n >= 1.0));
        assert!(after.contains("le=\"0.005\""), "{after}");
        assert!(ingested(&after) - ingested(&before) >= 3.0);
        assert!(after.contains("# TYPE parley_group_commit_batch_size histogram"));
        let commits = "parley_group_commit_duration_seconds_count";
        assert!(
            sample(&after, commits, &[]).is_some_and(|n| n >= 1.0),
            "{after}"
        );
        assert!(after.contains("parley_group_commit_duration_seconds_bucket{le=\"0.005\"}"));
        assert!(after.contains("parley_outbox_depth "));
        assert!(after.contains("parley_push_queue_length "));
    }
);

both_backends!(
    metrics_are_refused_to_clients_outside_loopback_and_the_allowed_networks,
    |backend| async move {
        let (mut settings, data_dir) = test_settings(backend).await;
        // Behind a trusted proxy the forwarded address is the client's.
        settings.auth.client_address_header = "X-Forwarded-For".into();
        settings.metrics.allow = vec!["198.51.100.0/24".parse().expect("a network")];
        let app = spawn_with(settings, data_dir).await;

        let (status, body) = scrape(&app, Some("203.0.113.7")).await;
        assert_eq!(status, 403, "{body}");
        let refusal: serde_json::Value = serde_json::from_str(&body).expect("a JSON refusal");
        assert_eq!(refusal["code"], "forbidden");
        assert!(
            refusal["detail"]
                .as_str()
                .is_some_and(|d| d.contains("allow"))
        );

        // A proxy that adds its own header line after the client's: the last line is the
        // proxy's, and a client cannot pass as loopback by sending a line of its own.
        let response = app
            .client
            .get(app.url("/metrics"))
            .header("X-Forwarded-For", "127.0.0.1")
            .header("X-Forwarded-For", "203.0.113.7")
            .send()
            .await
            .expect("metrics answered");
        assert_eq!(response.status().as_u16(), 403);

        for allowed in ["127.0.0.1", "198.51.100.20"] {
            let (status, body) = scrape(&app, Some(allowed)).await;
            assert_eq!(status, 200, "{allowed}: {body}");
            assert!(body.contains("# TYPE parley_http_requests_total counter"));
        }
    }
);

both_backends!(
    metrics_count_the_open_websocket_and_sse_sessions,
    |backend| async move {
        let app = spawn_app(backend).await;
        let session = app.register("watched").await;
        // Each has its `ready` frame, sent once the session actor started.
        let _ws = WsClient::connect(&app, &session.access).await;
        let _sse = SseClient::open(
            &app,
            "/api/events/stream/notifications/all",
            &session.access,
            None,
        )
        .await;
        let (status, text) = scrape(&app, None).await;
        assert_eq!(status, 200);
        for transport in ["websocket", "sse"] {
            let open = sample(
                &text,
                "parley_sessions_connected",
                &[("transport", transport)],
            );
            assert!(open.is_some_and(|n| n >= 1.0), "{transport}: {open:?}");
        }
    }
);

both_backends!(
    a_made_up_method_is_counted_as_other_and_never_becomes_a_series_of_its_own,
    |backend| async move {
        let app = spawn_app(backend).await;
        let made_up = format!("MADEUP{}", std::process::id());
        let method = reqwest::Method::from_bytes(made_up.as_bytes()).expect("a method");
        let response = app
            .client
            .request(method, app.url("/api/health"))
            .send()
            .await
            .expect("answered");
        assert_eq!(response.status().as_u16(), 405);
        let (status, text) = scrape(&app, None).await;
        assert_eq!(status, 200);
        assert!(!text.contains(&made_up), "{made_up} is a series");
        let other = [
            ("method", "other"),
            ("route", "/api/health"),
            ("status", "405"),
        ];
        assert!(sample(&text, "parley_http_requests_total", &other).is_some_and(|n| n >= 1.0));
    }
);
