//! The main API under `/api`, one module per area.
//!
//! - `health`: liveness (`HEAD`) and database reachability (`GET`)
//! - `conversations`: the conversation list, history and mark-as-read
//! - `events`: WebSocket and SSE pushes

pub mod conversations;
pub mod events;
pub mod health;

use actix_web::web;

use crate::auth::{handlers, profile};

/// Routes mounted under `/api`.
pub fn api_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/health", web::head().to(health::alive))
        .route("/health", web::get().to(health::report))
        .route(
            "/auth/protected-route",
            web::get().to(handlers::protected_route),
        )
        .route("/users/profile", web::get().to(profile::get_user))
        .route(
            "/users/toggle-language",
            web::patch().to(profile::toggle_language),
        )
        .route("/users", web::get().to(conversations::list_conversations))
        .route(
            "/conversation/{phone}",
            web::get().to(conversations::conversation_history),
        )
        .route(
            "/conversation/{phone}/mark-as-read",
            web::post().to(conversations::mark_as_read),
        )
        .route("/ws", web::get().to(events::websocket))
        .route(
            "/events/stream/notifications/all",
            web::get().to(events::notifications_stream),
        )
        .route(
            "/events/stream/{channel}",
            web::get().to(events::channel_stream),
        )
        .route("/events/close", web::post().to(events::close_stream));
}
