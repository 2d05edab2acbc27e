//! Parley actors: see hub, conversation and session modules.
