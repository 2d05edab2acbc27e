//! Reports: history built through the real paths (signed webhooks, an agent's sends, a resolve
//! through the team route), then the overview as JSON and CSV.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

/// A customer's text sent at Unix second `at`.
pub async fn customer_writes_at(app: &TestApp, biz: &Business, from: &str, id: &str, at: i64) {
    let mut message = text(from, id, "hello");
    message["timestamp"] = json!(at.to_string());
    let envelope = inbound(&biz.phone_number_id, from, "Customer", vec![message]);
    let (status, body) = app.webhook(&envelope, &biz.app_secret).await;
    assert_eq!(status, 200, "{body}");
}

fn now_secs() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Creates an agent named `first_name` and signs them in; answers (id, access token).
async fn agent(
    app: &TestApp,
    owner: &Session,
    first_name: &str,
    username: &str,
) -> (String, String) {
    let (status, body) = app
        .post(
            "/identity/users/agents",
            json!({
                "firstName": first_name,
                "lastName": "Agent",
                "username": username,
                "email": format!("{username}@example.com"),
                "password": PASSWORD,
            }),
            Some(&owner.access),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let id = body["_id"].as_str().expect("agent id").to_string();
    let (status, body) = app.login(username, PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    (id, session_of(&body).access)
}

async fn send_text(app: &TestApp, token: &str, to: &str, client_id: &str) {
    let form = reqwest::multipart::Form::new()
        .text("to", to.to_string())
        .text("message_id", client_id.to_string())
        .text("message_type", "text")
        .text("text", "Happy to help");
    let (status, body) = app.post_form("/api/send-message", token, form).await;
    assert_eq!(status, 200, "{body}");
}

async fn resolve(app: &TestApp, token: &str, phone: &str) {
    let (status, body) = app
        .call(
            reqwest::Method::PATCH,
            &format!("/api/conversation/{phone}/status"),
            Some(json!({"status": "resolved"})),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

pub async fn overview(app: &TestApp, token: &str, query: &str) -> Value {
    let (status, body) = app
        .get(&format!("/api/reports/overview?{query}"), token)
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

pub const ALICE: &str = "4915100000001";
pub const BOB: &str = "4915100000002";

both_backends!(
    the_overview_counts_openings_resolutions_messages_and_first_responses,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("report_owner").await;
        let (agent_id, agent_token) = agent(&app, &biz.session, "Sara", "report_agent").await;
        // Alice wrote ten minutes ago; the agent answers now, the owner resolves, she writes
        // again (a second opening). Bob writes and gets no answer.
        let first_at = now_secs() - 600;
        customer_writes_at(&app, &biz, ALICE, "wamid.a1", first_at).await;
        send_text(&app, &agent_token, ALICE, "reply-1").await;
        resolve(&app, &biz.session.access, ALICE).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        customer_writes_at(&app, &biz, ALICE, "wamid.a2", now_secs()).await;
        // The server reopens the conversation once the message is in.
        while ws.next_frame().await["event"] != "conversation_updated" {}
        customer_writes_at(&app, &biz, BOB, "wamid.b1", now_secs()).await;

        let report = overview(&app, &biz.session.access, "").await;
        assert_eq!(report["bucket"], "day");
        assert_eq!(report["tz"], "UTC");
        assert_eq!(report["buckets"].as_array().expect("buckets").len(), 7);
        let totals = &report["totals"];
        assert_eq!(totals["conversations_opened"], 3, "{report}");
        assert_eq!(totals["conversations_resolved"], 1);
        assert_eq!(totals["messages_in"], 3);
        assert_eq!(totals["messages_out"], 1);
        let first = totals["first_response_median_secs"]
            .as_i64()
            .expect("median");
        assert!((600..900).contains(&first), "{first}");
        assert_eq!(totals["first_response_p90_secs"], first);
        assert!(
            totals["resolution_median_secs"]
                .as_i64()
                .expect("resolution")
                >= 600
        );
        // The numbers sit in today's bucket, the last one, but for Alice's first message when
        // ten minutes ago was yesterday (a run just after midnight); the first bucket is empty.
        let opened = |day: usize| report["buckets"][day]["conversations_opened"].as_i64();
        let same_day = first_at / 86_400 == now_secs() / 86_400;
        let (yesterday, today) = if same_day { (0, 3) } else { (1, 2) };
        assert_eq!(opened(6), Some(today), "{report}");
        assert_eq!(opened(5), Some(yesterday), "{report}");
        let empty = &report["buckets"][0];
        assert_eq!(empty["messages_in"], 0);
        assert_eq!(empty["first_response_median_secs"], Value::Null);

        let agents = report["agents"].as_array().expect("agents");
        assert_eq!(agents.len(), 2, "the owner and the agent: {report}");
        assert_eq!(agents[0]["user_id"], agent_id.as_str());
        assert_eq!(agents[0]["name"], "Sara Agent");
        assert_eq!(agents[0]["conversations_handled"], 1);
        assert_eq!(agents[0]["first_response_median_secs"], first);
        assert_eq!(agents[1]["conversations_handled"], 0);
        assert_eq!(agents[1]["first_response_median_secs"], Value::Null);

        // Agents may not read reports.
        let (status, body) = app.get("/api/reports/overview", &agent_token).await;
        assert_eq!(status, 403, "{body}");
        assert!(body["detail"].is_string());

        // Another business sees nothing of this one.
        let other = app.business("report_other").await;
        let theirs = overview(&app, &other.session.access, "").await;
        assert_eq!(theirs["totals"]["conversations_opened"], 0);
        assert_eq!(theirs["totals"]["messages_in"], 0);
        assert_eq!(theirs["agents"].as_array().expect("agents").len(), 1);
    }
);

both_backends!(
    a_conversation_opened_before_the_range_does_not_open_again_in_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("report_before").await;
        let (_, agent_token) = agent(&app, &biz.session, "Omar", "report_before_agent").await;
        // Alice wrote three times last month and was never resolved; she writes again now.
        let month_ago = now_secs() - 30 * 86_400;
        for (i, at) in [month_ago, month_ago + 60, month_ago + 120]
            .into_iter()
            .enumerate()
        {
            customer_writes_at(&app, &biz, ALICE, &format!("wamid.old{i}"), at).await;
        }
        customer_writes_at(&app, &biz, ALICE, "wamid.now", now_secs() - 300).await;
        // Bob's first message is in the range; the agent answers him.
        customer_writes_at(&app, &biz, BOB, "wamid.bob", now_secs() - 300).await;
        send_text(&app, &agent_token, BOB, "reply-bob").await;

        let report = overview(&app, &biz.session.access, "").await;
        let totals = &report["totals"];
        assert_eq!(totals["conversations_opened"], 1, "{report}");
        assert_eq!(totals["messages_in"], 2);
        let first = totals["first_response_median_secs"]
            .as_i64()
            .expect("median");
        assert!((300..600).contains(&first), "{first}");

        // A range that holds Alice's first message counts her opening there.
        let from = chrono::DateTime::from_timestamp(month_ago - 86_400, 0).expect("from");
        let report = overview(
            &app,
            &biz.session.access,
            &format!("from={}", from.format("%Y-%m-%d")),
        )
        .await;
        assert_eq!(report["totals"]["conversations_opened"], 2, "{report}");
        assert_eq!(report["totals"]["messages_in"], 5);
    }
);

both_backends!(
    a_first_message_to_a_conversation_resolved_before_it_opens_it_once,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("report_resolved_first").await;
        let token = &biz.session.access;
        // The owner adds the customer and resolves the empty conversation; later the customer
        // writes for the first time, and the server reopens it.
        let (status, body) = app
            .post(
                "/api/contacts/add",
                json!({"name": "Alice", "phone_number": ALICE}),
                Some(token),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        resolve(&app, token, ALICE).await;
        // Provider times are whole seconds: the message's comes after the resolution.
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe("notifications/all").await;
        customer_writes_at(&app, &biz, ALICE, "wamid.first", now_secs()).await;
        while ws.next_frame().await["event"] != "conversation_updated" {}

        let totals = overview(&app, token, "").await["totals"].clone();
        assert_eq!(totals["conversations_opened"], 1, "{totals}");
        assert_eq!(totals["conversations_resolved"], 1);
        assert_eq!(totals["messages_in"], 1);
        // The resolution ended no opening.
        assert_eq!(totals["resolution_median_secs"], Value::Null);
    }
);

both_backends!(
    the_csv_download_has_a_header_and_escapes_formulas,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("report_csv").await;
        let (_, agent_token) = agent(&app, &biz.session, "=cmd|", "report_csv_agent").await;
        customer_writes_at(&app, &biz, ALICE, "wamid.c1", now_secs() - 60).await;
        send_text(&app, &agent_token, ALICE, "reply-csv").await;

        let response = app
            .client
            .get(app.url("/api/reports/overview?from=2026-01-01&to=2026-01-03&format=csv"))
            .bearer_auth(&biz.session.access)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 200);
        let headers = response.headers().clone();
        assert_eq!(headers["content-type"], "text/csv; charset=utf-8");
        assert_eq!(
            headers["content-disposition"],
            "attachment; filename=\"parley-report-2026-01-01-2026-01-03.csv\""
        );
        let body = response.text().await.expect("body");
        let lines: Vec<&str> = body.lines().collect();
        assert_eq!(
            lines[0],
            "start,conversations_opened,conversations_resolved,messages_in,messages_out,\
             first_response_median_secs,first_response_p90_secs,resolution_median_secs,\
             resolution_p90_secs"
        );
        assert_eq!(lines[1], "2026-01-01T00:00:00+00:00,0,0,0,0,,,,");
        assert_eq!(lines[4], "");
        assert_eq!(
            lines[5],
            "user_id,name,conversations_handled,first_response_median_secs"
        );
        // Outside the range the agent handled nothing, but is listed, their name made inert.
        assert!(
            lines.iter().any(|l| l.contains(",'=cmd| Agent,0,")),
            "{body}"
        );

        let today = app
            .client
            .get(app.url("/api/reports/overview?format=csv"))
            .bearer_auth(&biz.session.access)
            .send()
            .await
            .expect("request")
            .text()
            .await
            .expect("body");
        assert!(today.contains(",'=cmd| Agent,1,"), "{today}");
    }
);
