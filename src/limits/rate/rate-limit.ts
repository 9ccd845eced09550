/** The windows a key's rate limit may use (docs/keys.md (Rate limits)): fixed, aligned to the UTC epoch. */
export const RATE_LIMIT_WINDOWS = ['1s', '1m', '1h', '1d'] as const;
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];

/** At most `requests` accepted requests per `window`. */
export type RateLimit = { requests: number; window: RateLimitWindow };

export const WINDOW_SECONDS: Record<RateLimitWindow, number> = { '1s': 1, '1m': 60, '1h': 3_600, '1d': 86_400 };
