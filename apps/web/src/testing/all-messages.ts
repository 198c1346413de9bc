import reservesEn from '#features/landing/locales/en.json';
import reservesZh from '#features/landing/locales/zh.json';
import leaderboardEn from '#features/leaderboard/locales/en.json';
import leaderboardZh from '#features/leaderboard/locales/zh.json';
import evidenceEn from '#features/market-evidence/locales/en.json';
import evidenceZh from '#features/market-evidence/locales/zh.json';
import reviewEn from '#features/market-review/locales/en.json';
import reviewZh from '#features/market-review/locales/zh.json';
import marketsEn from '#features/markets/locales/en.json';
import marketsZh from '#features/markets/locales/zh.json';
import myBetsEn from '#features/my-bets/locales/en.json';
import historyEn from '#features/my-bets/locales/history/en.json';
import historyZh from '#features/my-bets/locales/history/zh.json';
import myBetsZh from '#features/my-bets/locales/zh.json';
import oracleEn from '#features/oracle/locales/en.json';
import oracleZh from '#features/oracle/locales/zh.json';
import priceEn from '#features/price-markets/locales/en.json';
import priceZh from '#features/price-markets/locales/zh.json';
import appEn from '#i18n/app/en.json';
import appZh from '#i18n/app/zh.json';
import shellEn from '#i18n/en.json';
import marketActionsEn from '#i18n/market-actions/en.json';
import marketActionsZh from '#i18n/market-actions/zh.json';
import walletPartsEn from '#i18n/wallet-parts/en.json';
import walletPartsZh from '#i18n/wallet-parts/zh.json';
import shellZh from '#i18n/zh.json';
import selfClaimEn from '#wallet/self-claim/locales/en.json';
import selfClaimZh from '#wallet/self-claim/locales/zh.json';

/**
 * Every message of every namespace in both languages, for tests (the translations check and
 * component tests). The app itself loads them on demand (locale-loaders.ts).
 */
export const ALL_MESSAGES = {
  en: {
    ...shellEn,
    ...appEn,
    ...walletPartsEn,
    ...marketsEn,
    ...marketActionsEn,
    ...reviewEn,
    ...evidenceEn,
    ...priceEn,
    ...oracleEn,
    ...selfClaimEn,
    ...leaderboardEn,
    ...myBetsEn,
    ...reservesEn,
    ...historyEn,
  },
  zh: {
    ...shellZh,
    ...appZh,
    ...walletPartsZh,
    ...marketsZh,
    ...marketActionsZh,
    ...reviewZh,
    ...evidenceZh,
    ...priceZh,
    ...oracleZh,
    ...selfClaimZh,
    ...leaderboardZh,
    ...myBetsZh,
    ...reservesZh,
    ...historyZh,
  },
};
