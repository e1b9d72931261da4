export { useSupportChat } from './components/use-support-chat';
