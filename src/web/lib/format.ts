export { formatPence } from '../../contract/money.ts';
