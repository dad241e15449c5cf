import { useNavigation } from 'react-router';
import classes from './NavigationProgress.module.css';

/** A thin bar while the next page's code loads, so a click never seems ignored. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className={classes.bar} aria-hidden />;
}
