import 'i18next';
import type reservesEn from '#features/landing/locales/en.json';
import type marketsEn from '#features/markets/locales/en.json';
import type evidenceEn from '#features/markets/locales/evidence/en.json';
import type priceEn from '#features/markets/locales/price/en.json';
import type reviewEn from '#features/markets/locales/review/en.json';
import type myBetsEn from '#features/my-bets/locales/en.json';
import type historyEn from '#features/my-bets/locales/history/en.json';
import type oracleEn from '#features/oracle/locales/en.json';
import type en from './en.json';

// Type-checked keys: `t('wallet.connect')` compiles, a misspelt key does not.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en &
        typeof oracleEn &
        typeof marketsEn &
        typeof reviewEn &
        typeof evidenceEn &
        typeof priceEn &
        typeof myBetsEn &
        typeof reservesEn &
        typeof historyEn;
    };
  }
}
