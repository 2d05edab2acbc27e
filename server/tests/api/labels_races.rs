//! Labels changed by several members at once: every request gets its answer (never a 500), and
//! the conversation ends with one of the sets asked for; a rename and a recolour of one label at
//! once both stay.

use futures_util::future::join_all;
use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::labels::{labels_path, rows};
use crate::team::{CUSTOMER, team};

both_backends!(
    members_setting_a_conversations_labels_at_once_all_succeed,
    |backend| async move {
        let t = team(spawn_app(backend).await, "label_race").await;
        let owner = &t.biz.session.access;
        let vip = t.app.label(owner, "VIP", "#D93F0B").await;
        let billing = t.app.label(owner, "billing", "#0E8A16").await;
        let tokens = [
            owner.as_str(),
            t.agents[0].1.access.as_str(),
            t.agents[1].1.access.as_str(),
        ];
        for round in 0..5 {
            let sets = [json!([vip]), json!([vip, billing]), json!([billing, vip])];
            let path = labels_path(CUSTOMER);
            let calls = (0..6).map(|i| {
                let body = json!({"labels": sets[(i + round) % sets.len()]});
                t.app.put(&path, body, tokens[i % tokens.len()])
            });
            for (status, body) in join_all(calls).await {
                assert_eq!(status, 200, "round {round}: {body}");
            }
            // Back to none, so the next round adds again.
            let calls = (0..3).map(|i| t.app.put(&path, json!({"labels": []}), tokens[i]));
            for (status, body) in join_all(calls).await {
                assert_eq!(status, 200, "round {round}: {body}");
            }
        }
        let row = &rows(&t.app, owner, "status=all").await[0];
        assert_eq!(row["labels"], json!([]), "{row}");
    }
);

both_backends!(
    a_label_deleted_while_it_is_put_on_a_conversation_leaves_no_trace_and_no_500,
    |backend| async move {
        let t = team(spawn_app(backend).await, "label_gone").await;
        let owner = &t.biz.session.access;
        let agent = &t.agents[0].1.access;
        for round in 0..8 {
            let id = t
                .app
                .label(owner, &format!("Temp {round}"), "#000000")
                .await;
            let (path, label) = (labels_path(CUSTOMER), format!("/api/labels/{id}"));
            let (put, delete) = futures_util::join!(
                t.app.put(&path, json!({"labels": [id]}), agent),
                t.app.delete(&label, owner),
            );
            assert!(put.0 == 200 || put.0 == 404, "round {round}: {put:?}");
            assert_eq!(delete.0, 204, "round {round}: {delete:?}");
            let row = &rows(&t.app, owner, "status=all").await[0];
            assert_eq!(row["labels"], json!([]), "round {round}: {row}");
        }
    }
);

both_backends!(
    a_rename_and_a_recolour_of_one_label_at_once_both_stay,
    |backend| async move {
        let t = team(spawn_app(backend).await, "label_edit_race").await;
        let owner = &t.biz.session.access;
        let id = t.app.label(owner, "Round 0", "#000000").await;
        let path = format!("/api/labels/{id}");
        for round in 1..=20 {
            let (name, color) = (format!("Round {round}"), format!("#0000{round:02}"));
            let (renamed, recoloured) = futures_util::join!(
                t.app.patch(&path, json!({"name": name}), owner),
                t.app.patch(&path, json!({"color": color}), owner),
            );
            assert_eq!((renamed.0, recoloured.0), (200, 200), "round {round}");
            let (status, body) = t.app.get("/api/labels", owner).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                body["labels"][0],
                json!({"id": id, "name": name, "color": color}),
                "round {round}"
            );
        }
    }
);
