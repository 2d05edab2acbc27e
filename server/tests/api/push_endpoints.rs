//! Push endpoints are push services: nothing inward (loopback, private, link-local, metadata,
//! local names) is accepted, and an endpoint another business registered is never taken over.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::text;
use crate::push::*;

/// A subscription to `endpoint` with keys a browser would send.
fn subscription_to(endpoint: &str) -> Value {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use p256::elliptic_curve::sec1::ToEncodedPoint;
    let secret = p256::SecretKey::random(&mut rand::rngs::OsRng);
    json!({"endpoint": endpoint,
           "keys": {"p256dh": URL_SAFE_NO_PAD.encode(
                        secret.public_key().to_encoded_point(false).as_bytes()),
                    "auth": URL_SAFE_NO_PAD.encode([7u8; 16])}})
}

both_backends!(
    inward_endpoints_are_refused_and_push_services_accepted,
    |backend| async move {
        // Default settings: no local push service opt-in.
        let app = spawn_app(backend).await;
        let session = app.register("inwardpush").await;
        for endpoint in [
            "https://127.0.0.1/send/x",
            "https://[::1]/send/x",
            "https://169.254.169.254/latest/meta-data",
            "https://10.0.0.5/send/x",
            "https://192.168.1.20/send/x",
            "https://[fd00:ec2::254]/send/x",
            "https://[::ffff:127.0.0.1]/send/x",
            "https://[::127.0.0.1]/send/x",
            "https://[2002:a9fe:a9fe::]/latest/meta-data",
            "https://2130706433/send/x",
            "https://0177.0.0.1/send/x",
            "https://localhost.:8443/send/x",
            "https://localhost:8443/send/x",
            "https://metadata.google.internal/computeMetadata",
            "https://intranet/send/x",
        ] {
            let (status, body) = subscribe(&app, &session.access, subscription_to(endpoint)).await;
            assert_eq!(status, 422, "{endpoint}: {body}");
            let message = body["message"].as_str().unwrap_or_default();
            assert!(
                message.starts_with("token.endpoint must be a push service on the internet"),
                "{endpoint}: {body}"
            );
        }
        let endpoint = "https://fcm.googleapis.com/fcm/send/abc:def";
        let (status, body) = subscribe(&app, &session.access, subscription_to(endpoint)).await;
        assert_eq!(status, 200, "{body}");
    }
);

both_backends!(
    an_endpoint_of_another_business_is_duplicated_never_moved,
    |backend| async move {
        let (app, mut service, first) = push_setup(backend, "firstpushshop").await;
        let second = app.business("secondpushshop").await;
        let browser = Browser::new(&service, "/shared");
        subscribed(&app, &first.session.access, &browser).await;
        // The same endpoint registered by another business.
        subscribed(&app, &second.session.access, &browser).await;

        // The first business still gets its pushes there.
        customer_writes(
            &app,
            &first,
            "Maria",
            text(CUSTOMER, "wamid.shared1", "Still yours?"),
        )
        .await;
        let push = service.next_to("/shared").await;
        assert_eq!(
            browser.open(&push)["conversation_id"],
            format!("{}_{CUSTOMER}", first.phone_number_id)
        );
        // And the second one its own.
        customer_writes(
            &app,
            &second,
            "Omar",
            text(CUSTOMER, "wamid.shared2", "Mine too"),
        )
        .await;
        let push = service.next_to("/shared").await;
        assert_eq!(
            browser.open(&push)["conversation_id"],
            format!("{}_{CUSTOMER}", second.phone_number_id)
        );

        // The second business unsubscribing removes only its own row.
        let (status, body) =
            unsubscribe(&app, &second.session.access, json!(browser.endpoint)).await;
        assert_eq!((status, &body["removed"]), (200, &json!(1)), "{body}");
        customer_writes(
            &app,
            &first,
            "Maria",
            text(CUSTOMER, "wamid.shared3", "Hello again"),
        )
        .await;
        service.next_to("/shared").await;
        service.assert_quiet().await;
    }
);
