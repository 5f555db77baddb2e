// Viewport
