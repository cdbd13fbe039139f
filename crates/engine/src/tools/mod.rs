//! One module per tool: params -> validated operation -> engine -> message.
