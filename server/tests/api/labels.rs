//! Labels: the owner's create, rename, recolour and delete; unique names and checked fields;
//! agents applying labels; the list's `labels` and `label=` filter; live events; tenants apart.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::team::{CUSTOMER, customer_writes, team};

/// A second customer of the business.
const OTHER: &str = "4915187654321";

impl TestApp {
    pub async fn put(&self, path: &str, body: Value, token: &str) -> (u16, Value) {
        self.call(reqwest::Method::PUT, path, Some(body), Some(token))
            .await
    }

    pub async fn delete(&self, path: &str, token: &str) -> (u16, Value) {
        self.call(reqwest::Method::DELETE, path, None, Some(token))
            .await
    }

    /// Creates a label as `token`; answers its id.
    pub async fn label(&self, token: &str, name: &str, color: &str) -> String {
        let (status, body) = self
            .post(
                "/api/labels",
                json!({"name": name, "color": color}),
                Some(token),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["id"].as_str().expect("label id").to_string()
    }
}

pub fn labels_path(phone: &str) -> String {
    format!("/api/conversation/{phone}/labels")
}

/// The list's rows for a query.
pub async fn rows(app: &TestApp, token: &str, query: &str) -> Vec<Value> {
    let (status, body) = app.get(&format!("/api/users?{query}"), token).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["users"].as_array().expect("users").clone()
}

/// The names of the business's labels, in the list's order.
pub async fn label_names(app: &TestApp, token: &str) -> Vec<String> {
    let (status, body) = app.get("/api/labels", token).await;
    assert_eq!(status, 200, "{body}");
    body["labels"]
        .as_array()
        .expect("labels")
        .iter()
        .map(|l| l["name"].as_str().expect("name").to_string())
        .collect()
}

/// The next event of this name on the socket.
async fn next_named(ws: &mut WsClient, name: &str) -> Value {
    loop {
        let frame = ws.next_frame().await;
        if frame["event"] == name {
            return frame["data"].clone();
        }
    }
}

both_backends!(
    the_owner_creates_renames_recolours_and_deletes_labels_and_agents_only_read_them,
    |backend| async move {
        let t = team(spawn_app(backend).await, "label_crud").await;
        let owner = &t.biz.session.access;
        let agent = &t.agents[0].1.access;
        let mut ws = WsClient::connect(&t.app, agent).await;
        ws.subscribe("notifications/all").await;

        let (status, created) = t
            .app
            .post(
                "/api/labels",
                json!({"name": " VIP ", "color": "#D93F0B"}),
                Some(owner),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["name"], "VIP");
        assert_eq!(created["color"], "#D93F0B");
        let id = created["id"].as_str().expect("id").to_string();
        let changed = next_named(&mut ws, "labels_changed").await;
        assert_eq!(changed["labels"], json!([created]));
        t.app.label(owner, "billing", "#0E8A16").await;
        next_named(&mut ws, "labels_changed").await;
        assert_eq!(label_names(&t.app, agent).await, ["billing", "VIP"]);

        let path = format!("/api/labels/{id}");
        let (status, renamed) = t.app.patch(&path, json!({"name": "Gold"}), owner).await;
        assert_eq!(status, 200, "{renamed}");
        assert_eq!(renamed["name"], "Gold");
        assert_eq!(renamed["color"], "#D93F0B");
        let (status, recoloured) = t.app.patch(&path, json!({"color": "#1D76DB"}), owner).await;
        assert_eq!(status, 200, "{recoloured}");
        assert_eq!(recoloured["name"], "Gold");
        assert_eq!(recoloured["color"], "#1D76DB");
        let changed = next_named(&mut ws, "labels_changed").await;
        assert_eq!(changed["labels"][1]["name"], "Gold", "{changed}");

        for (status, body) in [
            t.app
                .post(
                    "/api/labels",
                    json!({"name": "x", "color": "#000000"}),
                    Some(agent),
                )
                .await,
            t.app.patch(&path, json!({"name": "Mine"}), agent).await,
            t.app.delete(&path, agent).await,
        ] {
            assert_eq!(status, 403, "{body}");
            assert_eq!(body["code"], "forbidden");
        }

        let (status, body) = t.app.delete(&path, owner).await;
        assert_eq!(status, 204, "{body}");
        assert_eq!(label_names(&t.app, owner).await, ["billing"]);
        let (status, body) = t.app.delete(&path, owner).await;
        assert_eq!(status, 404, "{body}");
    }
);

both_backends!(
    another_business_labels_are_not_found,
    |backend| async move {
        let t = team(spawn_app(backend).await, "label_tenant").await;
        let owner = &t.biz.session.access;
        let stranger = t.app.business("label_stranger").await.session.access;
        let theirs = t.app.label(&stranger, "Theirs", "#5319E7").await;
        let path = format!("/api/labels/{theirs}");

        assert!(label_names(&t.app, owner).await.is_empty());
        let (status, body) = t.app.patch(&path, json!({"name": "Mine"}), owner).await;
        assert_eq!(status, 404, "{body}");
        let (status, body) = t.app.delete(&path, owner).await;
        assert_eq!(status, 404, "{body}");
        let (status, body) = t
            .app
            .put(&labels_path(CUSTOMER), json!({"labels": [theirs]}), owner)
            .await;
        assert_eq!(status, 404, "{body}");
        assert!(
            body["detail"].as_str().expect("detail").contains(&theirs),
            "{body}"
        );
        assert_eq!(label_names(&t.app, &stranger).await, ["Theirs"]);
        assert!(
            rows(&t.app, owner, &format!("label={theirs}"))
                .await
                .is_empty()
        );
    }
);

both_backends!(
    agents_apply_labels_live_and_the_list_filters_by_them,
    |backend| async move {
        let t = team(spawn_app(backend).await, "label_apply").await;
        let owner = &t.biz.session.access;
        let agent = &t.agents[0].1.access;
        let vip = t.app.label(owner, "VIP", "#D93F0B").await;
        let billing = t.app.label(owner, "billing", "#0E8A16").await;
        let mut message = text(OTHER, "wamid.label_apply-other", "hi");
        message["timestamp"] = json!(chrono::Utc::now().timestamp().to_string());
        let (status, body) = t
            .app
            .webhook(
                &inbound(&t.biz.phone_number_id, OTHER, "Other", vec![message]),
                &t.biz.app_secret,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        for row in rows(&t.app, owner, "").await {
            assert_eq!(row["labels"], json!([]), "{row}");
        }

        let mut ws = WsClient::connect(&t.app, owner).await;
        ws.subscribe("notifications/all").await;
        let (status, row) = t
            .app
            .put(
                &labels_path(CUSTOMER),
                json!({"labels": [vip, billing, vip]}),
                agent,
            )
            .await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["phone_number"], CUSTOMER);
        let names: Vec<_> = row["labels"]
            .as_array()
            .expect("labels")
            .iter()
            .map(|l| &l["name"])
            .collect();
        assert_eq!(names, ["billing", "VIP"]);
        assert_eq!(
            row["labels"][1],
            json!({"id": vip, "name": "VIP", "color": "#D93F0B"})
        );
        let event = next_named(&mut ws, "conversation_updated").await;
        assert_eq!(event["phone_number"], CUSTOMER);
        assert_eq!(event["labels"], row["labels"]);
        assert_eq!(event["by"]["name"], "Agent label_apply-agent1");

        let labelled = rows(&t.app, owner, &format!("label={vip}")).await;
        assert_eq!(labelled.len(), 1);
        assert_eq!(labelled[0]["phone_number"], CUSTOMER);
        assert_eq!(labelled[0]["labels"], row["labels"]);
        let all = rows(&t.app, owner, "status=all").await;
        assert_eq!(all.len(), 2);
        let (status, counts) = t
            .app
            .get(&format!("/api/users/counts?label={vip}"), owner)
            .await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(counts, json!({"mine": 0, "unassigned": 1, "all": 1}));

        // The row a team action answers carries the labels too.
        let (status, row) = t
            .app
            .patch(
                &format!("/api/conversation/{CUSTOMER}/status"),
                json!({"status": "pending"}),
                agent,
            )
            .await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["labels"].as_array().expect("labels").len(), 2);
        assert_eq!(
            rows(&t.app, owner, &format!("label={billing}&status=pending"))
                .await
                .len(),
            1
        );
        assert!(
            rows(&t.app, owner, &format!("label={billing}"))
                .await
                .is_empty()
        );

        let (status, row) = t
            .app
            .put(&labels_path(CUSTOMER), json!({"labels": []}), agent)
            .await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["labels"], json!([]));
        let (status, body) = t.app.put(&labels_path(CUSTOMER), json!({}), agent).await;
        assert_eq!(status, 422, "{body}");
        let (status, body) = t
            .app
            .put(&labels_path("4915100000000"), json!({"labels": []}), agent)
            .await;
        assert_eq!(status, 404, "{body}");
    }
);

both_backends!(
    a_deleted_label_leaves_every_conversation,
    |backend| async move {
        let t = team(spawn_app(backend).await, "label_delete").await;
        let owner = &t.biz.session.access;
        let agent = &t.agents[1].1.access;
        let vip = t.app.label(owner, "VIP", "#D93F0B").await;
        let kept = t.app.label(owner, "Kept", "#0E8A16").await;
        customer_writes(&t.app, &t.biz, "wamid.label_delete-2").await;
        let (status, body) = t
            .app
            .put(
                &labels_path(CUSTOMER),
                json!({"labels": [vip, kept]}),
                owner,
            )
            .await;
        assert_eq!(status, 200, "{body}");

        let mut ws = WsClient::connect(&t.app, agent).await;
        ws.subscribe("notifications/all").await;
        let (status, body) = t.app.delete(&format!("/api/labels/{vip}"), owner).await;
        assert_eq!(status, 204, "{body}");
        let event = next_named(&mut ws, "conversation_updated").await;
        assert_eq!(event["phone_number"], CUSTOMER);
        assert_eq!(
            event["labels"],
            json!([{"id": kept, "name": "Kept", "color": "#0E8A16"}])
        );
        let changed = next_named(&mut ws, "labels_changed").await;
        assert_eq!(changed["labels"].as_array().expect("labels").len(), 1);

        let row = &rows(&t.app, agent, "").await[0];
        assert_eq!(row["labels"], event["labels"]);
        assert!(
            rows(&t.app, agent, &format!("label={vip}"))
                .await
                .is_empty()
        );
        assert_eq!(rows(&t.app, agent, &format!("label={kept}")).await.len(), 1);
    }
);
