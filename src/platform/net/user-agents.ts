// Who we say we are to every site: the browser and every HTTP fetch send these.
/** Our product token: every user agent we send carries it, so sites can identify and address us. */
export const PRODUCT_TOKEN = 'CrawlServiceBot/1.0';

export interface UserAgents {
  desktop: string;
  mobile: string;
}

/** Current Chrome on Linux and on Android (Chrome's reduced UA format), plus our token. */
export const DEFAULT_USER_AGENTS: UserAgents = {
  desktop: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 ${PRODUCT_TOKEN}`,
  mobile: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36 ${PRODUCT_TOKEN}`,
};
