//! Bulk sends with per-recipient variables: a recipient file's variable columns give each
//! recipient its own values, checked in what the sandbox received and in the job's results.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_backends;
use crate::template_flow::{components, quick_review};

both_backends!(
    each_recipient_receives_its_own_variables,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("bulkvars").await;
        let token = biz.session.access.clone();
        app.approved_template(&biz, "order_update").await;

        let csv = "PhoneNumber,Header_1,1,2,Note\n\
                   +44 7700 900123,Omar,B-1,today,x\n\
                   (555) 010-0002,Sheena,B-2,tomorrow,\n\
                   00966 50 123 4567,Ali,,soon,x\n\
                   not a number,Zed,B-4,now,x\n\
                   447700900123,Omar,B-1,today,x\n";
        let form = reqwest::multipart::Form::new()
            .text("variables", "header_1, 1, 2")
            .part(
                "file",
                reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("vars.csv"),
            );
        let (status, parsed) = app.post_form("/api/recipients/parse", &token, form).await;
        assert_eq!(status, 200, "{parsed}");
        assert_eq!(parsed["numbers"], json!(["447700900123", "15550100002"]));
        assert_eq!(
            parsed["variables"]["15550100002"],
            json!({"header_1": "Sheena", "1": "B-2", "2": "tomorrow"})
        );
        let skipped = &parsed["skipped"];
        assert_eq!(
            (
                &skipped["count"],
                &skipped["invalid_number"],
                &skipped["duplicate"],
                &skipped["missing_variable"]
            ),
            (&json!(3), &json!(1), &json!(1), &json!(1))
        );
        assert_eq!(
            skipped["rows"][0],
            json!({"row": 4, "value": "00966 50 123 4567", "reason": "missing_variable",
                   "variable": "1"})
        );
        assert!(
            skipped["csv"]
                .as_str()
                .expect("csv")
                .contains("4,00966 50 123 4567,missing_variable,1\n"),
            "{skipped}"
        );

        // Each recipient with its row's values; a third, not from the file, takes the form's.
        let mut recipients: Vec<Value> = parsed["numbers"]
            .as_array()
            .expect("numbers")
            .iter()
            .map(|n| json!({"phone_number": n, "variables": parsed["variables"][n.as_str().expect("n")]}))
            .collect();
        recipients.push(json!("201001234567"));
        let (status, body) = app
            .send_template(
                &token,
                vec![
                    ("send_mode", "bulk".into()),
                    ("template_name", "order_update".into()),
                    ("language_code", "en_US".into()),
                    ("components_json", components().to_string()),
                    ("recipients_json", json!(recipients).to_string()),
                ],
            )
            .await;
        assert_eq!(status, 202, "{body}");
        let job = body["job_id"].as_str().expect("job").to_string();
        let report = app.finished_job(&biz, &job, Duration::from_secs(30)).await;
        let results = report["results"].as_object().expect("results");
        assert_eq!(results.len(), 3, "{report}");
        for number in ["447700900123", "15550100002", "201001234567"] {
            assert_eq!(results[number]["status"], "success", "{report}");
            assert!(results[number]["id"].is_string(), "{report}");
        }

        let sent = app.sandbox_sent(&biz).await;
        let values_sent_to = |number: &str| -> Vec<Value> {
            let body = sent
                .iter()
                .map(|m| &m["body"])
                .find(|b| b["to"] == number)
                .unwrap_or_else(|| panic!("nothing sent to {number}"));
            let components = body["template"]["components"]
                .as_array()
                .expect("components");
            components
                .iter()
                .flat_map(|c| c["parameters"].as_array().expect("parameters"))
                .map(|p| p["text"].clone())
                .collect()
        };
        assert_eq!(
            values_sent_to("447700900123"),
            [json!("Omar"), json!("B-1"), json!("today")]
        );
        assert_eq!(
            values_sent_to("15550100002"),
            [json!("Sheena"), json!("B-2"), json!("tomorrow")]
        );
        assert_eq!(
            values_sent_to("201001234567"),
            [json!("Ana"), json!("A-7"), json!("tomorrow")]
        );
    }
);

both_backends!(
    a_send_with_an_empty_variable_goes_as_given,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("blankvars").await;
        let token = biz.session.access.clone();
        app.approved_template(&biz, "order_update").await;
        let with_second = |text: &str| {
            let mut blank = components();
            blank[1]["parameters"][1]["text"] = json!(text);
            blank
        };
        let send = |mode: &str, to: (&'static str, String), components: &Value| {
            vec![
                ("send_mode", mode.to_string()),
                ("template_name", "order_update".into()),
                ("language_code", "en_US".into()),
                ("components_json", components.to_string()),
                to,
            ]
        };

        // The spec's client sends an empty variable as a single space; an empty text goes too.
        for (to, text) in [("201001234567", " "), ("201001234568", "")] {
            let one = send("single", ("to", to.into()), &with_second(text));
            let (status, body) = app.send_template(&token, one).await;
            assert_eq!(status, 200, "{body}");
        }

        // In bulk, a recipient without its own value gets the form's blank one.
        let own = json!({"phone_number": "447700900123", "variables": {"2": "soon"}});
        let everyone = json!([own, "15550100002"]).to_string();
        let bulk = send("bulk", ("recipients_json", everyone), &with_second(" "));
        let (status, body) = app.send_template(&token, bulk).await;
        assert_eq!(status, 202, "{body}");
        let job = body["job_id"].as_str().expect("job").to_string();
        let report = app.finished_job(&biz, &job, Duration::from_secs(30)).await;
        for number in ["447700900123", "15550100002"] {
            assert_eq!(report["results"][number]["status"], "success", "{report}");
        }

        let sent = app.sandbox_sent(&biz).await;
        let second_to = |number: &str| {
            let body = sent
                .iter()
                .map(|m| &m["body"])
                .find(|b| b["to"] == number)
                .unwrap_or_else(|| panic!("nothing sent to {number}"));
            body["template"]["components"][1]["parameters"][1]["text"].clone()
        };
        assert_eq!(second_to("201001234567"), json!(" "));
        assert_eq!(second_to("201001234568"), json!(""));
        assert_eq!(second_to("447700900123"), json!("soon"));
        assert_eq!(second_to("15550100002"), json!(" "));
    }
);

both_backends!(
    bulk_recipients_may_be_json_numbers_and_an_entry_without_one_is_named,
    |backend| async move {
        let app = quick_review(backend).await;
        let biz = app.business("bulknumbers").await;
        let token = biz.session.access.clone();
        app.approved_template(&biz, "order_update").await;
        let bulk = |recipients: Value| {
            vec![
                ("send_mode", "bulk".to_string()),
                ("template_name", "order_update".into()),
                ("language_code", "en_US".into()),
                ("components_json", components().to_string()),
                ("recipients_json", recipients.to_string()),
            ]
        };

        // A spreadsheet's numbers often arrive as JSON numbers, in objects too.
        let numbers =
            json!([15550100002_u64, {"phoneNumber": 447700900123_u64}, {"phone": "15550100003"}]);
        let (status, body) = app.send_template(&token, bulk(numbers)).await;
        assert_eq!(status, 202, "{body}");
        assert_eq!(body["total"], 3);
        let job = body["job_id"].as_str().expect("job").to_string();
        let report = app.finished_job(&biz, &job, Duration::from_secs(30)).await;
        for number in ["15550100002", "447700900123", "15550100003"] {
            assert_eq!(report["results"][number]["status"], "success", "{report}");
        }

        let (status, body) = app
            .send_template(&token, bulk(json!(["15550100002", {"name": "Omar"}])))
            .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(
            body["detail"],
            "recipients_json: entry 2 has no phone number"
        );
    }
);
